"""Idioms of TransformerEngine's Triton kernels (NVIDIA/TransformerEngine,
transformer_engine/common/triton/permutation.py), in kernels of ours:
`from triton.language.standard import _log2` called in a kernel on a constexpr
(`n_dims: tl.constexpr = _log2(BLOCK)`); `from triton.language import core` and
`get_int_dtype = core.get_int_dtype`, wrapped in `triton.constexpr_function` on Triton >= 3.5,
called in a kernel to bitcast a block to the integer of its width; a block's `.numel`; and
`tl.full(x.shape, …)` with the shape read from a block. Sizes off the block."""

import torch
import triton
import triton.language as tl
from triton.language import core
from triton.language.standard import _log2
from packaging import version

DEVICE = triton.runtime.driver.active.get_active_torch_device()

get_int_dtype = core.get_int_dtype
if version.parse(triton.__version__) >= version.parse("3.5.0"):
    get_int_dtype = triton.constexpr_function(get_int_dtype)


@triton.jit
def flip_pairs(x, n_dims: tl.constexpr):
    # Swap each pair of neighbours through the integer of the element's width, as TE's compare-and-swap.
    n_outer: tl.constexpr = x.numel >> n_dims
    shape: tl.constexpr = [n_outer * (2 ** (n_dims - 1)), 2]
    y = tl.reshape(x, shape)
    mask = tl.arange(0, 2)[None, :]
    left = tl.reshape(tl.broadcast_to(tl.sum(y * (1 - mask), 1)[:, None], shape), x.shape).to(x.dtype)
    right = tl.reshape(tl.broadcast_to(tl.sum(y * mask, 1)[:, None], shape), x.shape).to(x.dtype)
    idtype = get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    ix = x.to(idtype, bitcast=True)
    flip = tl.full(x.shape, value=1, dtype=tl.int32)
    swap = tl.where(flip != 0, left.to(idtype, bitcast=True) ^ right.to(idtype, bitcast=True), tl.zeros_like(ix))
    return (ix ^ swap).to(x.dtype, bitcast=True)


@triton.jit
def swap_kernel(X, Out, n, BLOCK: tl.constexpr):
    n_dims: tl.constexpr = _log2(BLOCK)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.0)
    tl.store(Out + offs, flip_pairs(x, n_dims), mask=offs < n)
    tl.store(Out + BLOCK, n_dims.to(tl.float32) + 0.0 * x.numel)


n = 45
x = torch.randn((n,), device=DEVICE)
out = torch.zeros((65,), device=DEVICE)
swap_kernel[(1,)](x, out, n, BLOCK=64)
padded = torch.zeros((64,), device=DEVICE)
padded[:n] = x
want = padded.reshape(32, 2).flip(1).reshape(64)[:n]
torch.testing.assert_close(out[:n], want, atol=0, rtol=0)
assert out[64].item() == 6.0, out[64].item()
assert _log2(64) == 6 and _log2(1) == 0 and core.get_int_dtype(16, False) == tl.uint16
print("_log2, core.get_int_dtype, x.numel and tl.full(x.shape): match")
