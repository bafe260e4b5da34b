"""Idioms of TransformerEngine's Triton kernels (NVIDIA/TransformerEngine,
transformer_engine/common/triton/permutation.py), in kernels of ours:
`from triton.language.standard import _log2` called in a kernel on a constexpr
(`n_dims: tl.constexpr = _log2(BLOCK)`); `from triton.language import core` and
`get_int_dtype = core.get_int_dtype`, wrapped in `triton.constexpr_function` on Triton >= 3.5,
called in a kernel to bitcast a block to the integer of its width; a block's `.numel`; and
`tl.full(x.shape, …)` with the shape read from a block (permutation.py). From mhc.py: a reshape to
four axes held in a name and taken apart by tl.split later (`x = tl.reshape(x, (M, C, 2, 2))`,
`x01, x23 = tl.split(x)`, then `x.dtype`), and tl.dot with M or N under 16 (`[4, 1, 64] × [4, 64, 4]`).
Sizes off the block."""

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


@triton.jit
def four_streams_kernel(X, H, G, Out, Grad, M, C, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    # out[m, c] = sum_j x[m, c, j] * h[m, j] with the four streams split apart, as mHC's aggregate;
    # grad[m, j] = sum_c g[m, c] * x[m, c, j] as a batched product of one row, as its backward.
    offs_m = tl.arange(0, BLOCK_M)
    offs_c = tl.arange(0, BLOCK_C)
    offs_cn = tl.arange(0, BLOCK_C * 4)
    mask_m = offs_m < M
    x = tl.load(X + offs_m[:, None] * C * 4 + offs_cn[None, :], mask=mask_m[:, None] & (offs_cn[None, :] < C * 4), other=0.0)
    h = tl.load(H + tl.arange(0, BLOCK_M * 4), mask=tl.arange(0, BLOCK_M * 4) < M * 4, other=0.0)
    h = h.reshape(BLOCK_M, 2, 2)
    h01, h23 = tl.split(h)
    h0, h1 = tl.split(h01)
    h2, h3 = tl.split(h23)
    x = tl.reshape(x, (BLOCK_M, BLOCK_C, 2, 2))
    x01, x23 = tl.split(x)
    x0, x1 = tl.split(x01)
    x2, x3 = tl.split(x23)
    acc = x0 * h0[:, None] + x1 * h1[:, None] + x2 * h2[:, None] + x3 * h3[:, None]
    tl.store(Out + offs_m[:, None] * C + offs_c[None, :], acc.to(x.dtype), mask=mask_m[:, None] & (offs_c[None, :] < C))
    g = tl.load(G + offs_m[:, None] * C + offs_c[None, :], mask=mask_m[:, None] & (offs_c[None, :] < C), other=0.0)
    xs = tl.load(X + offs_m[:, None] * C * 4 + offs_cn[None, :], mask=mask_m[:, None] & (offs_cn[None, :] < C * 4), other=0.0)
    grad = tl.dot(tl.reshape(g, (BLOCK_M, 1, BLOCK_C)), tl.reshape(xs, (BLOCK_M, BLOCK_C, 4)), out_dtype=tl.float32)
    tl.store(Grad + offs_m[:, None] * 4 + tl.arange(0, 4)[None, :], tl.reshape(grad, (BLOCK_M, 4)), mask=mask_m[:, None])


M, C = 3, 40
x = torch.randn((M, C, 4), device=DEVICE)
h = torch.rand((M, 4), device=DEVICE)
g = torch.randn((M, C), device=DEVICE)
out = torch.zeros((M, C), device=DEVICE)
grad = torch.zeros((M, 4), device=DEVICE)
four_streams_kernel[(1,)](x, h, g, out, grad, M, C, BLOCK_M=4, BLOCK_C=64)
torch.testing.assert_close(out, (x * h[:, None, :]).sum(-1), atol=1e-5, rtol=1e-5)
torch.testing.assert_close(grad, (g[:, :, None] * x).sum(1), atol=1e-4, rtol=1e-4)
print("a reshape to four axes held and split, tl.dot of one row: match")
