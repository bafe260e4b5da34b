# FlagGems' triton_lang_extension in miniature: jit functions a kernel of another file calls.
import triton
import triton.language as tl


@triton.jit
def program_id(axis):
    return tl.program_id(axis)


@triton.jit
def _scale(x, factor):
    return x * factor


@triton.jit
def scaled_sum(x, FACTOR: tl.constexpr, AXIS: tl.constexpr = 0):
    # Calls a helper of its own module in turn.
    return tl.sum(_scale(x, FACTOR), axis=AXIS)


@triton.jit
def load_block(ptr, offs, mask):
    # A helper that touches memory: an access past the end inside it is reported at this line.
    return tl.load(ptr + offs, mask=mask, other=0.0)
