import triton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2.0
