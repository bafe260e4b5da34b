"""Kernels as kernel libraries publish them (Liger-Kernel, FlagGems, unsloth style; Kernel Lab's own
file): module-level tl.constexpr globals, libdevice imported from triton.language.extra, row
offsets widened with .to(tl.int64), and in-place stores through the pointer arguments."""

import torch

import triton
import triton.language as tl
from triton.language.extra.libdevice import tanh
from triton.language.extra import libdevice

SQRT_2_OVER_PI: tl.constexpr = 0.7978845608028654
GELU_COEF = tl.constexpr(0.044715)


@triton.jit
def gelu_tanh_and_mul_inplace(gate_ptr, up_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    """gate = gelu_tanh(gate) * up, row by row, written over gate."""
    row = tl.program_id(0).to(tl.int64)
    gate_ptr += row * stride
    up_ptr += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    g = tl.load(gate_ptr + cols, mask=mask, other=0).to(tl.float32)
    u = tl.load(up_ptr + cols, mask=mask, other=0)
    inner = SQRT_2_OVER_PI * (g + GELU_COEF * g * g * g)
    y = 0.5 * g * (1 + tanh(inner))
    tl.store(gate_ptr + cols, (y * u).to(gate_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_inplace(x_ptr, w_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row.to(tl.int64) * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + cols, mask=mask, other=0.).to(tl.float32)
    rstd = libdevice.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.)
    tl.store(x_ptr + cols, x * rstd * w, mask=mask)


def gelu_and_mul_(gate, up):
    n_rows, n_cols = gate.shape
    gelu_tanh_and_mul_inplace[(n_rows, )](gate, up, gate.stride(0), n_cols, BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return gate


def rms_norm_(x, w, eps=1e-6):
    n_rows, n_cols = x.shape
    rms_norm_inplace[(n_rows, )](x, w, x.stride(0), n_cols, eps, BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return x


torch.manual_seed(0)
gate = torch.randn(19, 300, device="cuda")
up = torch.randn(19, 300, device="cuda")
expected = torch.nn.functional.gelu(gate, approximate="tanh") * up
out = gelu_and_mul_(gate, up)
assert out is gate
torch.testing.assert_close(gate, expected, atol=1e-5, rtol=1e-5)

x = torch.randn(23, 130, device="cuda")
w = torch.rand(130, device="cuda")
expected = x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + 1e-6) * w
rms_norm_(x, w)
torch.testing.assert_close(x, expected, atol=1e-5, rtol=1e-5)
print("in-place gelu*up and rms norm match torch")
