import triton
import triton.language as tl


@triton.jit
def combine_softmax(max_a: tl.tensor, sum_a: tl.tensor, max_b: tl.tensor, sum_b: tl.tensor):
    max = tl.maximum(max_a, max_b)
    sum = sum_a * tl.exp(max_a - max) + sum_b * tl.exp(max_b - max)
    return max, sum
