"""Idioms of Triton's own language tests (triton-lang/triton, python/test/unit/language/test_core.py) for reductions
and scans, in kernels of ours. test_reduce passes `axis=AXIS, keep_dims=KEEP_DIMS` with AXIS=None: every axis reduced
(it reduced axis 0 only, None read as 0); it catches `triton.TritonError` for an axis past the block's (an
AttributeError), and reduces `tl.cast(x, tl.int1)` with tl.xor_sum (KL2003 "takes numbers, not masks"). test_sum_dtype
sums in `dtype=tl.int1` (KL1040) and `dtype=tl.int8` (the total kept 32 bits). test_scan2d's tl.cumsum of a bf16 block
is summed in f32 and gives f32, as Triton's `_promote_bfloat16_to_float32` (it summed in bf16). test_random.py's
`x.std()` and test_generic_reduction's `torch.var_mean(x, dim=0, correction=0)` were not in Kernel Lab's torch.
test_atomic_cas's `tl.atomic_cas(Lock, 0, 1, SEM)` passes the memory order fourth, as Triton's signature (no mask):
KL1003, the string read as tl.atomicCas's mask."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def reduce_2d(X, Z, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, KEEP_DIMS: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    z = tl.sum(x, axis=AXIS, keep_dims=KEEP_DIMS)
    z_ptr = Z
    if KEEP_DIMS and AXIS is None:
        z_ptr = z_ptr[None, None, :]
    tl.store(z_ptr, z)


x = torch.arange(12, dtype=torch.float32, device=DEVICE).reshape(4, 3)[:, :2].contiguous()  # 4 × 2
z = torch.zeros(1, device=DEVICE)
reduce_2d[(1, )](x, z, 4, 2, AXIS=None, KEEP_DIMS=False)
assert z.item() == x.sum().item(), z
z.zero_()
reduce_2d[(1, )](x, z, 4, 2, AXIS=None, KEEP_DIMS=True)
assert z.item() == x.sum().item(), z
try:
    reduce_2d[(1, )](x, z, 4, 2, AXIS=2, KEEP_DIMS=False)
    raise AssertionError("an axis past the block's compiled")
except triton.TritonError as e:
    assert "KL2012" in str(e), str(e)
print("axis=None constexpr reduces every axis; triton.TritonError: match")


@triton.jit
def parity(X, Z, OUT, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    odd = tl.xor_sum(tl.cast(x, tl.int1), axis=0)
    tl.store(Z, odd)
    ones = tl.full((8, 8), 1, dtype=tl.int32)
    tl.store(OUT, tl.sum(ones, dtype=tl.int1).to(tl.int32))
    sevens = tl.full((8, 8), 7, dtype=tl.int32)
    tl.store(OUT + 1, tl.sum(sevens, dtype=tl.int8).to(tl.int32))


flags = torch.tensor([1, 0, 2, 0, 5, 0, 0, 0], dtype=torch.int32, device=DEVICE)  # three nonzero: odd
z8 = torch.zeros(1, dtype=torch.int8, device=DEVICE)
out = torch.zeros(2, dtype=torch.int32, device=DEVICE)
parity[(1, )](flags, z8, out, 8)
assert z8.item() == 1 and out.tolist() == [0, (7 * 64 + 128) % 256 - 128], (z8, out)
print("tl.xor_sum of a mask, tl.sum in int1 and int8: match")


@triton.jit
def scan_bf16(X, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Z + tl.arange(0, N), tl.cumsum(x, axis=0))


xb = (torch.arange(64, device=DEVICE).float() * 0.013 + 0.1).bfloat16()
zf = torch.zeros(64, device=DEVICE)
scan_bf16[(1, )](xb, zf, 64)
want, acc = [], 0.0
for v in xb.float().tolist():
    acc += v
    want.append(acc)
assert all(abs(a - b) <= 1e-5 * abs(b) for a, b in zip(zf.tolist(), want)), (zf.tolist()[-4:], want[-4:])
print("tl.cumsum of bf16 in f32: match")

t = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.5, 0.5, 3.0, -1.0]], device=DEVICE)
assert abs(t.std().item() - (sum((v - 2.125) ** 2 for v in t.reshape(-1).tolist()) / 7) ** 0.5) < 1e-5
torch.testing.assert_close(t.std(dim=1), t.var(dim=1).sqrt())
torch.testing.assert_close(torch.std(t, dim=1, keepdim=True, unbiased=False), t.var(dim=1, keepdim=True, unbiased=False).sqrt())
torch.testing.assert_close(t.std(1, correction=0), t.var(1, correction=0).sqrt())
v, m = torch.var_mean(t, dim=0, correction=0)
torch.testing.assert_close(v, t.var(0, correction=0))
torch.testing.assert_close(m, t.mean(0))
s, m = torch.std_mean(t)
assert abs(s.item() - t.std().item()) < 1e-6 and abs(m.item() - 2.125) < 1e-6
print("torch.std, torch.var_mean, torch.std_mean: match")


@triton.jit
def cas_lock(Lock, Count, SEM: tl.constexpr):
    while tl.atomic_cas(Lock, 0, 1, SEM) == 1:
        pass
    tl.store(Count, tl.load(Count) + 1)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


lock = torch.zeros(1, dtype=torch.int32, device=DEVICE)
count = torch.zeros(1, dtype=torch.int32, device=DEVICE)
cas_lock[(1, )](lock, count, SEM="acquire")
cas_lock[(1, )](lock, count, SEM=None)
assert lock.item() == 0 and count.item() == 2, (lock, count)
print("tl.atomic_cas's positional sem: match")
