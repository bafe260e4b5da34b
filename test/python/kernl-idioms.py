"""Idioms of kernl's Triton kernels (ELS-RD/kernl, src/kernl/implementations/), in kernels of ours:
`from torch.autograd.function import FunctionCtx` at import (every implementation file) and a
Function whose forward is annotated `ctx: FunctionCtx`;
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
