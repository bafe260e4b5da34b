"""A local `NAME: tl.constexpr = …` decided from constexprs, as xformers' split-K kernel writes
(`FP8_QUANTIZED: tl.constexpr = K_fp8_scale_shift is not None`, `INT4_QUANTIZED: tl.constexpr =
PACKED_PER_VAL > 1 and not FP8_QUANTIZED`), then `if INT4_QUANTIZED:` making a block pointer that the
`else` binds to None, and the block pointer passed to a helper that advances and reads it only under
`elif PACKED_PER_VAL > 1`. Triton decides the ifs while compiling, so the name is a block pointer
after them; it was a None passed to the helper (KL1006 / KL2005 inside it). Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_scales(X, scale_ptr, N, PACKED: tl.constexpr, FP8: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    if FP8:
        x = x + 1.0
    elif PACKED > 1:
        scale_ptr = tl.advance(scale_ptr, (0,))
        x = x + tl.load(scale_ptr, boundary_check=(0,))
    return x


@triton.jit
def dequantize_rows(X, Y, S, N, PACKED: tl.constexpr, BLOCK: tl.constexpr):
    FP8: tl.constexpr = S is not None
    INT4: tl.constexpr = PACKED > 1 and not FP8
    if INT4:
        scale_ptr = tl.make_block_ptr(base=X, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    elif FP8:
        scale_ptr = tl.make_block_ptr(base=S, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    else:
        scale_ptr = None
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, add_scales(X, scale_ptr, N, PACKED, FP8, BLOCK), mask=offs < N)


x = torch.randn(20, device=DEVICE)
y = torch.empty(20, device=DEVICE)
dequantize_rows[(1,)](x, y, None, 20, PACKED=8, BLOCK=32)
torch.testing.assert_close(y.cpu(), x.cpu() * 2)
dequantize_rows[(1,)](x, y, None, 20, PACKED=1, BLOCK=32)
torch.testing.assert_close(y.cpu(), x.cpu())
dequantize_rows[(1,)](x, y, x, 20, PACKED=4, BLOCK=32)
torch.testing.assert_close(y.cpu(), x.cpu() + 1)
print("constexpr locals decide the ifs: match")
