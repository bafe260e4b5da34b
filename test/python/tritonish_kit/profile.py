# Like tritonbench's tritonbench/kernels/profile.py, for test/python/tritonbench-idioms.py: a package beside the script
# whose name starts with "triton" (its imports were taken for Triton's own), module constexprs bound by host calls, and a
# helper ending in an elif chain of returns on them, one branch an f-string of inline assembly (was KL1101 though dropped).
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
        # AMD's hardware-id register, as tritonbench's smid(): an f-string of assembly in a branch the constexpr drops.
        HW_ID_OFFSET: tl.constexpr = 8
        return tl.inline_asm_elementwise(f"s_getreg_b32 $0, hwreg(HW_REG_HW_ID, {HW_ID_OFFSET}, 4)", "=s", [], dtype=tl.int32, is_pure=False, pack=1)
    elif IS_CUDA:
        return 7
    else:
        tl.static_assert(False, "Unsupported platform")
