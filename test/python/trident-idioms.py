"""Idioms of kakaobrain/trident's Triton kernels (trident 1.1.0, trident/kernel/ and trident/language/), in
kernels of ours: every kernel a `@staticmethod` `@triton.jit` function of a class, under `@triton.autotune` and
`@triton.heuristics`, launched as `Cls.forward[grid](…)`; helpers of a class called as `Cls.helper(x)`, of
another module's class as `language.math.ReLU.forward(x)` and `language.RowSum.forward(…)` (a package that takes
them in with `from .x import *`); another module's combine function passed to tl.reduce as
`language.combine_softmax` and its `tl.constexpr` read as `language.eps`; a class-level combine function passed as
`Cls.combine`; a class kernel without @staticmethod. Sizes off the blocks."""

import torch
import triton
import triton.language as tl

from trident_kit import language

DEVICE = triton.runtime.driver.active.get_active_torch_device()


class ReLU:
    @staticmethod
    @triton.autotune([triton.Config({"x_block_size": 64}), triton.Config({"x_block_size": 128})], ["x_size"])
    @triton.jit
    def forward(output_ptr: tl.tensor, input_ptr: tl.tensor, x_size: tl.int32, x_block_size: tl.constexpr):
        offs = tl.program_id(0) * x_block_size + tl.arange(0, x_block_size)
        x = tl.load(input_ptr + offs, mask=offs < x_size)
        tl.store(output_ptr + offs, language.math.ReLU.forward(x), mask=offs < x_size)


x = torch.randn(300, device=DEVICE)
out = torch.empty_like(x)
ReLU.forward[lambda meta: (triton.cdiv(300, meta["x_block_size"]),)](out, x, 300)
torch.testing.assert_close(out, torch.where(x > 0, x, torch.zeros_like(x)), atol=0, rtol=0)
print("Cls.forward[grid] under autotune, calling language.math.ReLU.forward: match")


class Softmax:
    @staticmethod
    @triton.heuristics({"require_x_boundary_check": lambda args: args["x_size"] % args["x_block_size"]})
    @triton.jit
    def forward(output_ptr: tl.tensor, input_ptr: tl.tensor, x_size: tl.int32, y_stride: tl.int32,
                x_block_size: tl.constexpr, require_x_boundary_check: tl.constexpr):
        y = tl.program_id(0)
        offs = tl.arange(0, x_block_size)
        max = tl.full((1, x_block_size), -float("inf"), tl.float32)
        sum = tl.zeros((1, x_block_size), tl.float32)
        for x_offset in range(0, x_size, x_block_size):
            x = tl.load(input_ptr + y * y_stride + x_offset + offs[None, :], mask=x_offset + offs[None, :] < x_size, other=-float("inf"))
            peak = Softmax.peak(max, x, x_offset + offs[None, :] < x_size, require_x_boundary_check)
            sum = sum * tl.exp(max - peak) + tl.exp(x - peak)
            max = peak
        max, sum = tl.reduce((max, sum), 1, language.combine_softmax)
        for x_offset in range(0, x_size, x_block_size):
            mask = x_offset + offs[None, :] < x_size
            x = tl.load(input_ptr + y * y_stride + x_offset + offs[None, :], mask=mask)
            tl.store(output_ptr + y * y_stride + x_offset + offs[None, :], tl.exp(x - max) / (sum + language.eps), mask=mask)

    @staticmethod
    @triton.jit
    def peak(max, x, condition, require_x_boundary_check: tl.constexpr):
        if require_x_boundary_check:
            return tl.where(condition, tl.maximum(max, x), 0)
        return tl.maximum(max, x)


x = torch.randn(5, 300, device=DEVICE)
out = torch.empty_like(x)
Softmax.forward[(5,)](out, x, 300, x.stride(0), x_block_size=128)
torch.testing.assert_close(out, torch.softmax(x, 1), atol=1e-5, rtol=1e-4)
print("Softmax.peak, language.combine_softmax to tl.reduce, language.eps: match")


class Sum:
    # No @staticmethod: Sum.forward is the JITFunction all the same.
    @triton.jit
    def forward(output_ptr, input_ptr, y_size, x_size, y_stride, x_block_size: tl.constexpr):
        y = tl.program_id(0)
        total = language.RowSum.forward(input_ptr, y_size, x_size, y_stride, y, x_block_size)
        tl.store(output_ptr + y + tl.arange(0, 1), total, mask=y + tl.arange(0, 1) < y_size)

    @staticmethod
    @triton.jit
    def combine(a, b):
        return tl.maximum(a, b)

    @staticmethod
    @triton.jit
    def max(output_ptr, input_ptr, x_size, x_block_size: tl.constexpr):
        offs = tl.arange(0, x_block_size)
        x = tl.load(input_ptr + offs, mask=offs < x_size, other=-float("inf"))
        tl.store(output_ptr, tl.reduce(x, 0, Sum.combine))


x = torch.randn(7, 300, device=DEVICE)
out = torch.empty(7, device=DEVICE)
Sum.forward[(7,)](out, x, 7, 300, x.stride(0), x_block_size=64)
torch.testing.assert_close(out, x.sum(1), atol=1e-4, rtol=1e-5)
peak = torch.empty(1, device=DEVICE)
Sum.max[(1,)](peak, x, 300, x_block_size=512)
torch.testing.assert_close(peak, x.reshape(-1)[:300].max().reshape(1), atol=0, rtol=0)
print("a class kernel without @staticmethod calling language.RowSum.forward (and RowSum.finish), Sum.combine to tl.reduce: match")
