import triton
import triton.language as tl


@triton.jit
def dequantize(b, scales, zeros, q_shift, meta_dtype, unpack_mask, W_group_mode: tl.constexpr):
    b = (b >> q_shift) & unpack_mask
    if(W_group_mode == 1):
        b = b.to(meta_dtype) - zeros
    if(W_group_mode == 2):
        b = b.to(meta_dtype) * scales
    if(W_group_mode == 4):
        b = tl.fma(b.to(meta_dtype), scales, zeros)
    return b
