"""Idioms of vllm's Triton kernels (vllm-project/vllm, vllm/v1/attention/ops/), in kernels of ours:
a helper's tuple unpacked into a parenthesized target written one name a line,
`(seq_idx, start, length) = helper(…)` (triton_unified_attention.py), `torch.finfo` of a float8
dtype read at import for a constexpr default (`FP8_MAX: tl.constexpr = float8_info.max`); and
prefix_prefill.py's: `tl` taken from another module (`from vllm.triton_utils import tl, triton`)
then `tl.math.exp`, `if k.dtype.is_fp8():`, and a name first assigned in a loop, then assigned
again after it at another block shape (`off_k`). Sizes off the block."""

from enum import IntEnum

import torch
from vllm_kit.triton_utils import tl, triton

DEVICE = triton.runtime.driver.active.get_active_torch_device()

fp8_info = torch.finfo(torch.float8_e4m3fn)
assert (fp8_info.max, fp8_info.min, fp8_info.eps, fp8_info.tiny, fp8_info.bits) == (448.0, -448.0, 0.125, 2.0 ** -6, 8)
e5m2 = torch.finfo(torch.float8_e5m2)
assert (e5m2.max, e5m2.eps, e5m2.tiny, e5m2.resolution) == (57344.0, 0.25, 2.0 ** -14, 1.0)


@triton.jit
def seq_bounds(starts_ptr, seq_idx):
    start = tl.load(starts_ptr + seq_idx)
    stop = tl.load(starts_ptr + seq_idx + 1)
    return seq_idx, start, stop - start


@triton.jit
def clamp_rows_kernel(x_ptr, out_ptr, starts_ptr, BLOCK: tl.constexpr, CLAMP_MAX: tl.constexpr = fp8_info.max):
    (
        seq_idx,
        start,
        length,
    ) = seq_bounds(starts_ptr, tl.program_id(0))
    offs = tl.arange(0, BLOCK)
    mask = offs < length
    x = tl.load(x_ptr + start + offs, mask=mask, other=0.0)
    y = tl.clamp(x * 1000.0, -CLAMP_MAX, CLAMP_MAX) + seq_idx
    tl.store(out_ptr + start + offs, y, mask=mask)


lens = [5, 37, 1, 20]
starts = [0]
for n in lens:
    starts.append(starts[-1] + n)
x = torch.randn(starts[-1], device=DEVICE)
out = torch.empty_like(x)
clamp_rows_kernel[(len(lens),)](x, out, torch.tensor(starts, dtype=torch.int32, device=DEVICE), BLOCK=64)
seq_of = torch.tensor([i for i, n in enumerate(lens) for _ in range(n)], dtype=torch.float32)
torch.testing.assert_close(out.cpu(), torch.clamp(x.cpu() * 1000.0, -448.0, 448.0) + seq_of)
print("parenthesized tuple targets, finfo of float8: match")


@triton.jit
def two_phase_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, WIDE: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        if x.dtype.is_fp8():
            x = x.to(tl.float32) * 2.0
        acc += tl.where(offs < n, tl.math.exp(x), 0.0)
    offs = tl.arange(0, WIDE)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + offs, tl.zeros([WIDE], dtype=tl.float32) + total, mask=offs < 3)


n = 77
x = torch.randn(n, device=DEVICE)
out = torch.empty(3, device=DEVICE)
two_phase_kernel[(1,)](x, out, n, BLOCK=16, WIDE=4)
torch.testing.assert_close(out.cpu(), torch.full((3,), torch.exp(x.cpu()).sum().item()), rtol=1e-5, atol=1e-5)
print("tl.math through an imported tl, dtype.is_fp8(), a name rebound after its loop: match")
