"""Idioms of pytorch/ao's (torchao's) Triton kernels, in kernels of ours: an operator namespace made with
`torch.library.Library(ns, "FRAGMENT")`, `lib.define(schema)` and `@torch.library.impl(lib, name, "CUDA")`, called
as `torch.ops.ns.name(…)` (quantized_training/int8_mm.py's scaled_int8_mm); `torch.clamp_min` on the host
(moe_training/ep/kernels.py's generate_permute_indices); a running amax with
`tl.maximum(acc, x, propagate_nan=tl.PropagateNan.ALL)` (nvfp4_training's amax kernels), here through a parameter
whose default is `tl.PropagateNan.ALL` (evaluated by the host at import); a group amax reduced across
programs with `tl.atomic_max` on a float32 buffer (group_weight_amax_triton.py), and `tl.atomic_min`. Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()

lib = torch.library.Library("kl_torchao", "FRAGMENT")
lib.define("row_scaled_copy(Tensor x, Tensor scale) -> Tensor")


@triton.jit
def row_scaled_copy_kernel(X, S, Out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * n_cols + offs, mask=mask, other=0.0)
    s = tl.load(S + row)
    tl.store(Out + row * n_cols + offs, x * s, mask=mask)


@torch.library.impl(lib, "row_scaled_copy", "Meta")
def _(x, scale):
    return torch.empty_like(x)


@torch.library.impl(lib, "row_scaled_copy", "CUDA")
def row_scaled_copy_cuda(x, scale):
    out = torch.empty_like(x)
    row_scaled_copy_kernel[(x.shape[0],)](x, scale, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return out


x = torch.randn((13, 37), device=DEVICE)
scale = torch.clamp_min(torch.randn(13, device=DEVICE), 0.25)
assert bool((scale >= 0.25).all())
out = torch.ops.kl_torchao.row_scaled_copy(x, scale)
torch.testing.assert_close(out, x * scale[:, None], atol=1e-6, rtol=1e-6)
torch.testing.assert_close(torch.ops.kl_torchao.row_scaled_copy.default(x, scale), x * scale[:, None], atol=1e-6, rtol=1e-6)
print("torch.library.Library + define + impl(lib, name, 'CUDA'), torch.ops.kl_torchao.row_scaled_copy, torch.clamp_min: match")


@triton.jit
def row_amax_kernel(X, Out, OutNone, n_cols, BLOCK: tl.constexpr, PROPAGATE: tl.constexpr = tl.PropagateNan.ALL):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    acc_none = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.abs(tl.load(X + row * n_cols + offs, mask=offs < n_cols, other=0.0))
        acc = tl.maximum(acc, x, propagate_nan=PROPAGATE)
        acc_none = tl.maximum(acc_none, x, propagate_nan=tl.PropagateNan.NONE)
    has_nan = tl.max((acc != acc).to(tl.int32), axis=0)
    amax = tl.where(has_nan != 0, float("nan"), tl.max(acc, axis=0))
    tl.store(Out + row, amax)
    tl.store(OutNone + row, tl.max(tl.where(acc_none != acc_none, 0.0, acc_none), axis=0))


x = torch.randn((7, 300), device=DEVICE)
x[2, 100] = float("nan")
x[5, 299] = float("nan")
amax = torch.empty(7, device=DEVICE)
amax_none = torch.empty(7, device=DEVICE)
row_amax_kernel[(7,)](x, amax, amax_none, 300, BLOCK=64)
nan_rows = torch.isnan(x).any(dim=1)
ref = torch.where(torch.isnan(x), 0.0, x.abs()).amax(dim=1)
got = amax.cpu().tolist()
for r, is_nan in enumerate(nan_rows.cpu().tolist()):
    assert (got[r] != got[r]) == is_nan, (r, got[r])
torch.testing.assert_close(torch.where(nan_rows, 0.0, amax), torch.where(nan_rows, 0.0, ref), atol=0, rtol=0)
print("tl.maximum(acc, x, propagate_nan=tl.PropagateNan.ALL): NaN rows NaN, the others their amax: match")


@triton.jit
def group_amax_kernel(W, Amax, Lo, LoOld, n_cols, rows_per_group, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs = pid_n * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_cols
    w = tl.load(W + row * n_cols + offs, mask=mask, other=0.0)
    group = row // rows_per_group
    tl.atomic_max(Amax + group, tl.max(tl.abs(w)))
    old = tl.atomic_min(Lo + group + offs * 0, w, mask=mask, sem="relaxed")
    tl.store(LoOld + row * n_cols + offs, old, mask=mask)


w = torch.randn((12, 150), device=DEVICE)
w[4:8] = -w[4:8].abs()
amax = torch.zeros(3, device=DEVICE)
lo = torch.full((3,), float("inf"), device=DEVICE)
lo_old = torch.empty((12, 150), device=DEVICE)
group_amax_kernel[(12, triton.cdiv(150, 64))](w, amax, lo, lo_old, 150, 4, BLOCK=64)
groups = w.reshape(3, 600)
torch.testing.assert_close(amax, groups.abs().amax(dim=1), atol=0, rtol=0)
torch.testing.assert_close(lo, groups.amin(dim=1), atol=0, rtol=0)
assert bool((lo_old.reshape(3, 600) >= lo[:, None]).all())
print("tl.atomic_max(amax_ptr + group, tl.max(tl.abs(w))) on float32, tl.atomic_min(sem='relaxed'): match")
