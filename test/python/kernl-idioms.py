"""Idioms of kernl's Triton kernels (ELS-RD/kernl, src/kernl/implementations/), in kernels of ours:
`from torch.autograd.function import FunctionCtx` at import (every implementation file) and a
Function whose forward is annotated `ctx: FunctionCtx`;
Triton 2.0's `tl.libdevice.tanh` / `tl.libdevice.erf` (activation_func.py) in a helper;
module-level constants computed with Python's math, `sqrt2 = math.sqrt(2.0)`,
`sqrt2pi = math.sqrt(2.0 / math.pi)`, read in a kernel (activation_func.py);
a bool constexpr & a mask, `if N_LOAD_MASK_NEEDED & (not IS_MATRIX_MASK):` (attention.py);
a tuple's name given an int in a constexpr branch, `idx = (batch,)` then `if MASK_BATCH == 1: idx = 0`
(attention_skinny.py);
an int argument equal to 1 specialized as the constant, as Triton does: `if attention_mask_batch_size == 1:`
rebinds the tuple above at compile time (attention.py), and do_not_specialize keeps it a run-time if.
Sizes off the block."""

import math

import torch
import triton
import triton.language as tl
from torch.autograd.function import FunctionCtx

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * scale, mask=offs < n)


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx: FunctionCtx, x: torch.Tensor, scale: float) -> torch.Tensor:
        out = torch.empty_like(x)
        scale_kernel[(triton.cdiv(x.numel(), 32),)](x, out, x.numel(), scale, BLOCK=32)
        return out


x = torch.randn(70, device=DEVICE)
torch.testing.assert_close(Scale.apply(x, 0.5).cpu(), x.cpu() * 0.5)
print("torch.autograd.function imported as a module: match")

sqrt2 = math.sqrt(2.0)
sqrt2pi = math.sqrt(2.0 / math.pi)


@triton.jit
def gelu(x):
    return x * 0.5 * (1.0 + tl.libdevice.erf(x / sqrt2))


@triton.jit
def fast_gelu(x):
    return 0.5 * x * (1 + tl.libdevice.tanh(sqrt2pi * (x + 0.044715 * x * x * x)))


@triton.jit
def activation_kernel(x_ptr, out_ptr, n, ACTIVATION: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if ACTIVATION == "gelu":
        x = gelu(x)
    if ACTIVATION == "fast_gelu":
        x = fast_gelu(x)
    tl.store(out_ptr + offs, x, mask=offs < n)


x = torch.randn(45, device=DEVICE)
xs = x.cpu().tolist()
for act, f in [("gelu", lambda v: v * 0.5 * (1.0 + math.erf(v / math.sqrt(2.0)))),
               ("fast_gelu", lambda v: 0.5 * v * (1 + math.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3))))]:
    out = torch.empty_like(x)
    activation_kernel[(2,)](x, out, x.numel(), ACTIVATION=act, BLOCK=32)
    torch.testing.assert_close(out.cpu(), torch.tensor([f(v) for v in xs]), atol=1e-6, rtol=1e-5)
print("tl.libdevice, module constants from math.sqrt and math.pi: match")


@triton.jit
def masked_add_kernel(x_ptr, out_ptr, n, ADD: tl.constexpr, SKIP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if ADD & (not SKIP):
        x = x + 1.0
    tl.store(out_ptr + offs, x, mask=offs < n)


x = torch.randn(20, device=DEVICE)
for add, skip in [(True, False), (True, True), (False, False)]:
    out = torch.empty_like(x)
    masked_add_kernel[(1,)](x, out, x.numel(), add, skip, BLOCK=32)
    torch.testing.assert_close(out.cpu(), x.cpu() + (1.0 if add and not skip else 0.0))
print("a bool constexpr & (not constexpr): match")


@triton.jit
def broadcast_rows_kernel(mask_ptr, out_ptr, n, MASK_BATCH: tl.constexpr, BLOCK: tl.constexpr):
    batch = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask_batch_idx = (batch,)
    if MASK_BATCH == 1:
        mask_batch_idx = 0
    row = tl.load(mask_ptr + mask_batch_idx * n + offs, mask=offs < n)
    tl.store(out_ptr + batch * n + offs, row, mask=offs < n)


m = torch.randn(1, 20, device=DEVICE)
out = torch.empty(3, 20, device=DEVICE)
broadcast_rows_kernel[(3,)](m, out, 20, MASK_BATCH=1, BLOCK=32)
torch.testing.assert_close(out.cpu(), m.cpu().expand(3, 20))
print("a tuple's name rebound to an int in a constexpr branch: match")


@triton.jit
def rows_by_batch_size_kernel(mask_ptr, out_ptr, n, mask_batch_size, BLOCK: tl.constexpr):
    batch = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask_batch_idx = (batch,)
    if mask_batch_size == 1:
        mask_batch_idx = 0
    row = tl.load(mask_ptr + mask_batch_idx * n + offs, mask=offs < n)
    tl.store(out_ptr + batch * n + offs, row, mask=offs < n)


@triton.jit(do_not_specialize=["mask_batch_size"])
def rows_unspecialized_kernel(mask_ptr, out_ptr, n, mask_batch_size, BLOCK: tl.constexpr):
    batch = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask_batch_idx = (batch,)
    if mask_batch_size == 1:
        mask_batch_idx = 0
    row = tl.load(mask_ptr + mask_batch_idx * n + offs, mask=offs < n)
    tl.store(out_ptr + batch * n + offs, row, mask=offs < n)


out = torch.empty(3, 20, device=DEVICE)
rows_by_batch_size_kernel[(3,)](m, out, 20, 1, BLOCK=32)
torch.testing.assert_close(out.cpu(), m.cpu().expand(3, 20))
try:
    rows_unspecialized_kernel[(3,)](m, out, 20, 1, BLOCK=32)
except triton.CompilationError as e:
    assert "KL2007" in str(e), str(e)
    print("an int argument equal to 1 specialized, not with do_not_specialize: match")
