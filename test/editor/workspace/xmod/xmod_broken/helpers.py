# A helper module with one mistake: the live diagnostics of the kernel that calls it point here.
import triton
import triton.language as tl


@triton.jit
def program_id(axis):
    return tl.program_idx(axis)
