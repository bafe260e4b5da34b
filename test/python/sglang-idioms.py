"""Idioms of SGLang's Triton kernels (sgl-project/sglang, python/sglang/srt/layers/attention/
triton_ops/), in kernels of ours: decode_attention.py's grouped kernel scales a [heads, keys] block
by a scalar subscripted as a row, `qk *= xai_temperature_reg[:, None]`, where the scalar comes from
the sequence length (Triton's subscript splats a scalar to a block of shape [1] whatever the new
axis). Sizes off the block."""

import math

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def temper_rows_kernel(x_ptr, lens_ptr, out_ptr, T: tl.constexpr, H: tl.constexpr, N: tl.constexpr,
                       BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(lens_ptr + b)
    temp = tl.where(n > T, tl.log2(n.to(tl.float32)) / tl.log2(float(T)), 1.0)
    offs_h = tl.arange(0, BLOCK_H)
    offs_n = tl.arange(0, BLOCK_N)
    mask = (offs_h[:, None] < H) & (offs_n[None, :] < N)
    offs = b * H * N + offs_h[:, None] * N + offs_n[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x *= temp[:, None]
    y = x + temp[None, :]
    tl.store(out_ptr + offs, y, mask=mask)


lens = [3, 40, 17]
H, N, T = 5, 12, 16
x = torch.randn(len(lens), H, N, device=DEVICE)
out = torch.empty_like(x)
temper_rows_kernel[(len(lens),)](x, torch.tensor(lens, dtype=torch.int32, device=DEVICE), out,
                                 T=T, H=H, N=N, BLOCK_H=8, BLOCK_N=16)
temps = torch.tensor([math.log2(n) / math.log2(T) if n > T else 1.0 for n in lens])
torch.testing.assert_close(out.cpu(), x.cpu() * temps[:, None, None] + temps[:, None, None])
print("a scalar subscripted as a row or a column (s[:, None], s[None, :]): match")
