"""A kernel whose checked launch needs every storage buffer the adapter binds: 13 pointer parameters,
two of them stored, and a tl.device_assert (Kernel Lab's own file). The correctness launch adds a
buffer for its bounds and race checks and one per stored output; the assert adds its record buffer.
On lavapipe (16 storage buffers a kernel) that made 17, and Dawn answered "Invalid PipelineLayout";
now the run falls back to checking bounds at the grid's corners, as it does for any kernel past the
limit, and the assert still runs. Then 16 pointer parameters and an assert: past the limit
whatever the check, told as such (`WIDE=1`)."""

import os

import torch
import triton
import triton.language as tl


@triton.jit
def sum_of_eleven(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, o0, o1, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    m = offs < n
    tl.device_assert(n > 0, "n must be positive")
    s = tl.load(a0 + offs, mask=m) + tl.load(a1 + offs, mask=m) + tl.load(a2 + offs, mask=m) + tl.load(a3 + offs, mask=m)
    s += tl.load(a4 + offs, mask=m) + tl.load(a5 + offs, mask=m) + tl.load(a6 + offs, mask=m) + tl.load(a7 + offs, mask=m)
    s += tl.load(a8 + offs, mask=m) + tl.load(a9 + offs, mask=m) + tl.load(a10 + offs, mask=m)
    tl.store(o0 + offs, s, mask=m)
    tl.store(o1 + offs, s * 2, mask=m)


@triton.jit
def sum_of_fifteen(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, o, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    m = offs < n
    tl.device_assert(n > 0, "n must be positive")
    s = tl.load(a0 + offs, mask=m) + tl.load(a1 + offs, mask=m) + tl.load(a2 + offs, mask=m) + tl.load(a3 + offs, mask=m)
    s += tl.load(a4 + offs, mask=m) + tl.load(a5 + offs, mask=m) + tl.load(a6 + offs, mask=m) + tl.load(a7 + offs, mask=m)
    s += tl.load(a8 + offs, mask=m) + tl.load(a9 + offs, mask=m) + tl.load(a10 + offs, mask=m) + tl.load(a11 + offs, mask=m)
    s += tl.load(a12 + offs, mask=m) + tl.load(a13 + offs, mask=m) + tl.load(a14 + offs, mask=m)
    tl.store(o + offs, s, mask=m)


n = 1000  # not a multiple of the block
xs = [torch.rand(n, device="cuda") for _ in range(15)]
cols = list(zip(*[x.tolist() for x in xs[:11]]))
ref = [sum(c) for c in cols]  # Python floats: float64
o0 = torch.full((n,), float("nan"), device="cuda")
o1 = torch.full((n,), float("nan"), device="cuda")
sum_of_eleven[(triton.cdiv(n, 128),)](*xs[:11], o0, o1, n, B=128)
err0 = max(abs(g - w) for g, w in zip(o0.tolist(), ref))
err1 = max(abs(g - 2 * w) for g, w in zip(o1.tolist(), ref))
assert err0 < 1e-5 and err1 < 2e-5, (err0, err1)  # a NaN fails both
print("eleven inputs, two outputs, an assert: match")

if os.environ.get("WIDE") == "1":
    o = torch.full((n,), float("nan"), device="cuda")
    sum_of_fifteen[(triton.cdiv(n, 128),)](*xs, o, n, B=128)
    print("fifteen inputs, one output, an assert: ran")
