# Kernels that call @triton.jit functions of other modules, in FlagGems' style: a package beside
# the script (xmod_helpers/), imported as `from pkg import mod as tle`, `import pkg.mod as m`,
# `import pkg.mod` and `from pkg.mod import helper`. Checked against torch on sizes that aren't
# multiples of the blocks.
import torch
import triton
import triton.language as tl

import xmod_helpers.limits
import xmod_helpers.limits as limits
from xmod_helpers import lang as tle
from xmod_helpers.lang import scaled_sum

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def row_scaled_sum_kernel(X, Y, N, stride, BLOCK: tl.constexpr, FACTOR: tl.constexpr):
    row = tle.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0)
    x = limits.clamp_min(x, -0.5)
    tl.store(Y + row, scaled_sum(x, FACTOR))


@triton.jit
def clamp_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tle.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tle.load_block(X, offs, mask)
    tl.store(Y + offs, xmod_helpers.limits.clamp_min(x, -0.5), mask=mask)


torch.manual_seed(0)
M, N = 37, 100
x = torch.randn(M, N, device=DEVICE)
y = torch.full((M,), float("nan"), device=DEVICE)
row_scaled_sum_kernel[(M,)](x, y, N, x.stride(0), BLOCK=128, FACTOR=3.0)
low = torch.full_like(x, -0.5)
expected = (torch.where(x < low, low, x) * 3.0).sum(dim=1)
torch.testing.assert_close(y, expected, rtol=1e-4, atol=1e-4)
print("row sums: max difference:", torch.max(torch.abs(y - expected)).item())

n = 1000
v = torch.randn(n, device=DEVICE)
out = torch.full_like(v, float("nan"))
clamp_kernel[(triton.cdiv(n, 256),)](v, out, n, BLOCK=256)
lowv = torch.full_like(v, -0.5)
torch.testing.assert_close(out, torch.where(v < lowv, lowv, v))
print("clamp: max difference:", torch.max(torch.abs(out - torch.where(v < lowv, lowv, v))).item())
