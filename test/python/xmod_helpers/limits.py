# Like FlagGems' flag_gems.utils.limits: a jit helper with a constexpr argument.
import triton
import triton.language as tl


@triton.jit
def clamp_min(x, LOW: tl.constexpr):
    return tl.where(x < LOW, LOW, x)
