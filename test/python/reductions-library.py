"""Reductions as kernel libraries write them (FlagGems' style; Kernel Lab's own kernels): Welford's
mean and variance by a multi-operand tl.reduce, an argmax carrying its index with ties, a tuple
associative_scan, dtype predicates decided while compiling (a limits.py-style get_dtype_min with
`.value`, `int_bitwidth` and `**` on constexprs, a `@tl.constexpr` function choosing the
accumulator's dtype), `if dW:` on a pointer argument, and a block's name rebound to a scalar."""

import torch

import triton
import triton.language as tl
from torch._prims_common import is_integer_dtype


@triton.jit
def welford_combine(mean_a, m2_a, w_a, mean_b, m2_b, w_b):
    w = w_a + w_b
    frac = tl.where(w == 0.0, 0.0, w_b / w)
    delta = mean_b - mean_a
    return mean_a + delta * frac, m2_a + m2_b + delta * delta * w_a * frac, w


@triton.jit
def first_max(va, ia, vb, ib):
    take_b = (vb > va) | ((vb == va) & (ib < ia))
    return tl.where(take_b, vb, va), tl.where(take_b, ib, ia)


@triton.jit
def add_pair(s_a, c_a, s_b, c_b):
    return s_a + s_b, c_a + c_b


@triton.jit
def reduce_any(a, b):
    return a or b


@triton.jit
def lowest(dtype):
    dtype_ = dtype.value
    if dtype_.is_floating():
        value: tl.constexpr = float("-inf")
        return value
    if dtype_.is_int_signed():
        width: tl.constexpr = dtype_.int_bitwidth
        value: tl.constexpr = -1 * 2 ** (width - 1)
        return value


@tl.constexpr
def accumulator_of(dtype: tl.dtype) -> tl.dtype:
    if dtype.is_fp16() or dtype.is_bf16():
        return tl.float32
    return dtype


@triton.jit
def row_stats(X, Mean, Var, Amax, Suffix, Count, dW, AnyBig, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < M) & (cols < N)
    acc_dtype: tl.constexpr = accumulator_of(X.dtype.element_ty)
    x = tl.load(X + rows * N + cols, mask, other=0.0).to(acc_dtype)
    mean, m2, weight = tl.reduce((x, tl.zeros_like(x), mask.to(tl.float32)), axis=1, combine_fn=welford_combine)
    tl.store(Mean + rows, mean[:, None], rows < M)
    tl.store(Var + rows, (m2 / (weight - 1.0))[:, None], rows < M)
    floor = lowest(X.dtype.element_ty)
    vals = tl.where(mask, x, floor)
    idx = tl.broadcast_to(cols, (BLOCK_M, BLOCK_N))
    best, at = tl.reduce((vals, idx), 1, first_max, keep_dims=True)
    tl.store(Amax + rows, at, rows < M)
    # A mask reduced by a combine function (FlagGems' any: tl.reduce(x != 0, 0, reduce_any)).
    tl.store(AnyBig + rows, tl.reduce(x > 4.5, 1, reduce_any, keep_dims=True).to(tl.int32), rows < M)
    s, c = tl.associative_scan((x, mask.to(tl.int32)), 1, add_pair, reverse=True)
    tl.store(Suffix + rows * N + cols, s, mask)
    tl.store(Count + rows * N + cols, c, mask)
    # A block's name given a run-time scalar rebinds it; a pointer argument as a condition is non-null.
    best = tl.max(best)
    if dW:
        if x.dtype == tl.float32 and x.dtype.is_fp32() and not x.dtype.is_int():
            tl.store(dW + tl.program_id(0), best)


def row_stats_(x, block_m=2):
    M, N = x.shape
    outs = [torch.empty(M, device="cuda"), torch.empty(M, device="cuda"), torch.empty(M, device="cuda", dtype=torch.int32),
            torch.empty_like(x), torch.empty(M, N, device="cuda", dtype=torch.int32), torch.empty(triton.cdiv(M, block_m), device="cuda"),
            torch.empty(M, device="cuda", dtype=torch.int32)]
    # Triton reads a grid's first three entries (FlagGems' cumsum launches (M, n, 1, 1)).
    row_stats[(triton.cdiv(M, block_m), 1, 1, 1)](x, *outs, M, N, BLOCK_M=block_m, BLOCK_N=triton.next_power_of_2(N))
    return outs


torch.manual_seed(0)
x = torch.randint(-3, 4, (13, 200), device="cuda").float() + torch.rand(13, 1, device="cuda")  # ties in every row
x[4, 17] = 5.0  # rows 4 and 9 hold a value above 4.5: any() is true there only
x[9, 199] = 6.0
mean, var, amax, suffix, count, row_max, any_big = row_stats_(x)
torch.testing.assert_close(mean, x.mean(dim=1), atol=1e-5, rtol=1e-5)
torch.testing.assert_close(var, x.var(dim=1), atol=1e-4, rtol=1e-4)
assert x.var(dim=[1], unbiased=False).squeeze(dim=[0]).shape == (13,) and not is_integer_dtype(x.dtype)
first = torch.tensor([row.index(max(row)) for row in x.tolist()], dtype=torch.int32)
assert torch.equal(amax.cpu(), first), (amax, first)
torch.testing.assert_close(suffix, x.sum(dim=1, keepdim=True) - x.cumsum(1) + x, atol=1e-3, rtol=1e-4)
assert torch.equal(count[:, 0].cpu(), torch.full((13,), 200, dtype=torch.int32)) and count[5, 199].item() == 1
torch.testing.assert_close(row_max, torch.stack([x[p * 2:(p + 1) * 2].max() for p in range(7)]))
assert torch.equal(any_big.cpu(), (x > 4.5).any(dim=1).int().cpu()) and any_big.sum().item() == 2
print("Welford, argmax with ties, a tuple scan and dtype predicates match torch")
