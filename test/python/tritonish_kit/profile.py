# Like tritonbench's tritonbench/kernels/profile.py, for test/python/tritonbench-idioms.py: a package beside the script
# whose name starts with "triton" (its imports were taken for Triton's own), module constexprs bound by host calls, and a
# helper ending in an elif chain of returns on them.
import triton
import triton.language as tl


def is_cuda():
    return True


def is_hip():
    return False


IS_CUDA = tl.constexpr(is_cuda())
IS_HIP = tl.constexpr(is_hip())


@triton.jit
def platform_offset(_semantic=None):
    if IS_HIP:
        return 100
    elif IS_CUDA:
        return 7
    else:
        tl.static_assert(False, "Unsupported platform")
