"""FlagGems' style, second batch: boolean accumulators filled by tl.full / tl.zeros with tl.int1 and
folded with `and` / `or` (all.py, any.py), and libdevice functions reached through a math module
its package picks at run time (groupnorm.py's `rsqrt = tl_extra_shim.rsqrt`, weightnorm.py's
`tl_extra_shim.pow(x, 3)`). Checked against torch on sizes that aren't multiples of the blocks."""

import torch
import triton
import triton.language as tl

from xmod_helpers.shim import math_shim, uint_to_uniform_float

rsqrt = math_shim.rsqrt


@triton.jit
def reduce_all(a, b):
    return a and b


@triton.jit
def reduce_any(a, b):
    return a or b


@triton.jit
def row_all_any_kernel(X, All, Any, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    every = tl.full([BLOCK_M, BLOCK_N], value=1, dtype=tl.int1)
    some = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int1)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)[None, :]
        mask = row_mask and cols < N
        every = every and (tl.load(X + rows * N + cols, mask, other=1.0) != 0)
        some = some or (tl.load(X + rows * N + cols, mask, other=0.0) > 3.5)
    tl.store(All + rows, tl.reduce(every, axis=1, combine_fn=reduce_all)[:, None], row_mask)
    tl.store(Any + rows, tl.reduce(some, axis=1, combine_fn=reduce_any)[:, None], row_mask)


@triton.jit
def scaled_rows_kernel(X, Y, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * N + cols, mask=cols < N, other=0.0)
    r = rsqrt(tl.sum(x * x) / N + eps)
    tl.store(Y + row * N + cols, math_shim.pow(x * r, 3.0), mask=cols < N)


@triton.jit
def normal_pairs_kernel(U, Out, Ref, N, seed, BLOCK: tl.constexpr):
    # FlagGems' randn: Philox words → uniform floats → Box-Muller pairs.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    zero = offs * 0
    r0, r1, r2, r3 = tl.philox(seed, offs, zero, zero, zero)
    u1 = uint_to_uniform_float(r0)
    u2 = uint_to_uniform_float(r1)
    n1, n2 = tl.pair_uniform_to_normal(u1, u2)
    tl.store(U + offs, u1, mask=offs < N)
    tl.store(U + N + offs, u2, mask=offs < N)
    tl.store(Out + offs, n1, mask=offs < N)
    tl.store(Out + N + offs, n2, mask=offs < N)
    tl.store(Ref + offs, tl.randn(seed, offs), mask=offs < N)


@triton.jit
def doubled_kernel(X, Y, N, BLOCK: tl.constexpr, DIVISIBLE: tl.constexpr):
    # FlagGems' bmm: where the block divides the size, the mask is None (no mask), positional or
    # keyword, in an if decided while lowering and in one the compiler folds later (`and`).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if DIVISIBLE:
        mask = None
    else:
        mask = offs < N
    if DIVISIBLE and BLOCK > 1:
        mask_y = None
    else:
        mask_y = offs < N
    x = tl.load(X + offs, mask)
    tl.store(Y + offs, x * 2.0, mask=mask_y)


torch.manual_seed(0)
M, N = 37, 300
x = torch.randint(0, 5, (M, N), device="cuda").float()
x[3] = 1.0  # a row of no zero: all() is true there
x[5] = 0.0  # and one of all zeros: any() is false
every = torch.empty(M, dtype=torch.bool, device="cuda")
some = torch.empty(M, dtype=torch.bool, device="cuda")
row_all_any_kernel[(triton.cdiv(M, 4),)](x, every, some, M, N, BLOCK_M=4, BLOCK_N=128)
torch.testing.assert_close(every, torch.all(x, 1))
torch.testing.assert_close(some, torch.any(x > 3.5, 1))
print("tl.int1 accumulators: all", int(every.sum().item()), "rows, any", int(some.sum().item()), "rows")

y = torch.randn((13, 257), device="cuda")
out = torch.empty_like(y)
scaled_rows_kernel[(13,)](y, out, 257, 1e-5, BLOCK=512)
scaled = y / torch.sqrt((y * y).mean(dim=1, keepdim=True) + 1e-5)
torch.testing.assert_close(out, scaled * scaled * scaled, rtol=1e-4, atol=1e-4)
print("rsqrt and pow through a math module picked at run time")

for n, divisible in [(1024, True), (1000, False)]:
    x = torch.randn(n, device="cuda")
    y = torch.empty(n, device="cuda")
    doubled_kernel[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256, DIVISIBLE=divisible)
    torch.testing.assert_close(y, 2.0 * x)
print("a mask bound to None where the block divides the size")

n = 1000
u = torch.empty(2 * n, device="cuda")
normal = torch.empty(2 * n, device="cuda")
randn = torch.empty(n, device="cuda")
normal_pairs_kernel[(triton.cdiv(n, 256),)](u, normal, randn, n, 1234, BLOCK=256)
u1, u2 = torch.clamp(u[:n], min=1.0e-7), u[n:]
radius = torch.sqrt(-2.0 * torch.log(u1))
torch.testing.assert_close(normal, torch.cat([radius * torch.cos(6.283185307179586 * u2), radius * torch.sin(6.283185307179586 * u2)]), rtol=1e-4, atol=1e-4)
torch.testing.assert_close(normal[:n], randn, rtol=1e-5, atol=1e-5)  # tl.randn is the first of the pair, as Triton's
print("tl.pair_uniform_to_normal on uint_to_uniform_float imported from another module")

# The host side: FlagGems' weight norm passes eps=torch.finfo(torch.float32).tiny to its kernels.
assert torch.finfo(torch.float32).tiny == 2.0 ** -126 and torch.finfo().eps == 2.0 ** -23
assert torch.finfo(torch.float16).max == 65504.0 and torch.finfo(torch.bfloat16).bits == 16
assert torch.iinfo(torch.int32).min == -2 ** 31 and torch.iinfo(torch.int64).max == 2 ** 63 - 1 and torch.iinfo(torch.uint8).max == 255
# Dtypes without tensors here still have their numbers (FlagGems' topk reads int16's at import, vllm's
# attention kernels float8_e4m3fn's).
assert torch.finfo(torch.float64).tiny == 2.0 ** -1022 and torch.iinfo(torch.int16).max == 32767
# torch's constants, as SpargeAttn's host code reads them.
assert torch.inf == float("inf") and torch.nan != torch.nan and 3.14159 < torch.pi < 3.1416 and 2.71828 < torch.e < 2.7183
print("finfo of float8_e5m2:", torch.finfo(torch.float8_e5m2).max)
print("torch.finfo / torch.iinfo")

# FlagGems' instance norm makes its statistics with `torch.empty(size=(B, C), …)`; its cross-entropy
# loss takes `reduction` through torch.nn._reduction.get_enum.
from torch.nn import _reduction as _Reduction  # noqa: E402

assert torch.empty(size=(3, 5), device="cuda").shape == (3, 5) and torch.zeros(size=[2, 7]).sum().item() == 0
assert torch.ones(size=(4,), dtype=torch.int32).sum().item() == 4 and torch.randn(size=(2, 3)).shape == (2, 3)
assert [_Reduction.get_enum(r) for r in ("none", "mean", "sum")] == [0, 1, 2]
try:
    torch.empty((2,), out=x)
except NotImplementedError as e:
    print("empty(out=):", str(e).split(" is not")[0])
print("size=, nn._reduction")

# FlagGems' nonzero: a bool tensor's cumsum(axis=0) (int64, as torch's); its cat: torch.promote_types.
assert torch.tensor([True, False, True, True], device="cuda").cumsum(axis=0).tolist() == [1, 1, 2, 3]
assert torch.tensor([1.5, 2.0]).cumsum(0, dtype=torch.int32).tolist() == [1, 3]
assert torch.promote_types(torch.float16, torch.bfloat16) is torch.float32 and torch.promote_types(torch.int32, torch.float16) is torch.float16
print("cumsum(axis=), promote_types")
