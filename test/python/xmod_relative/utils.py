# Shared @triton.jit helpers of the package (Liger's utils.py, FlagGems' utils/ in miniature).
import triton
import triton.language as tl


@triton.jit
def block_offsets(BLOCK: tl.constexpr):
    return tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)


@triton.jit
def clamp(x, lo, hi):
    return tl.minimum(tl.maximum(x, lo), hi)
