# A kernel calling another module's @triton.jit function that has a mistake (xmod_broken/helpers.py).
import triton
import triton.language as tl

from xmod_broken import helpers


@triton.jit
def copy_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = helpers.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n), mask=offs < n)
