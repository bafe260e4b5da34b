"""The idioms of FBGEMM's Triton kernels (fbgemm-idioms.py) that Kernel Lab stopped at, reduced: a tl fp8 dtype given
to a constexpr (`TL_FP8_DTYPE=tl.float8e4nv`, then `.to(TL_FP8_DTYPE)`); triton.reinterpret's TensorWrapper of a
tensor's own dtype launched; a name bound to None, rebound in a branch a constexpr decides and given to a helper
(the MX4 quantizer's `group_rand_bits`); shifts by 32 or more (the MX4 quantizer's mantissa shifted right by up to
45 to flush a tiny value); `assert cond` in a kernel failing with its condition named; and adjacent string literals,
one string in Python (fp8_gemm.py's `constraints=("=r,=r,=r,=r," "r")`). And on the host, a matmul over an empty K of
views (an SLL reference's empty sequence: `a[5:5].t() @ g[5:5]`), which was an AttributeError on the GPU."""

import torch
import triton
import triton.language as tl
from triton.runtime.jit import TensorWrapper, reinterpret

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def to_fp8(X, Y, n, FP8: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    tl.store(Y + offs, tl.clamp(x, -448.0, 448.0).to(FP8).to(tl.float32), mask=offs < n)


x = torch.tensor([1.0625, 1.1875, 500.0, -3.3, 0.001, 70000.0], device=DEVICE)
y = torch.full((6,), float("nan"), device=DEVICE)
to_fp8[(1,)](x, y, 6, FP8=tl.float8e4nv, BLOCK=8)
e4 = torch.clamp(x, -448.0, 448.0).to(torch.float8_e4m3fn).float()
to_fp8[(1,)](x, y2 := torch.full((6,), float("nan"), device=DEVICE), 6, FP8=tl.float8e5, BLOCK=8)
e5 = torch.clamp(x, -448.0, 448.0).to(torch.float8_e5m2).float()
print("tl fp8 dtypes given to a constexpr:", "match" if y.tolist() == e4.tolist() and y2.tolist() == e5.tolist() else f"differ {y.tolist()} {y2.tolist()}")


@triton.jit
def copy(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n), mask=offs < n)


q = torch.clamp(x, -448.0, 448.0).to(torch.float8_e4m3fn)
out = torch.full((6,), 7.0, device=DEVICE).to(torch.float8_e4m3fn)
wrapped = reinterpret(q, tl.float8e4nv)
copy[(1,)](wrapped, out, 6, BLOCK=8)
ok = isinstance(wrapped, TensorWrapper) and out.float().tolist() == q.float().tolist() and reinterpret(wrapped, torch.float8_e4m3fn) is q
try:
    copy[(1,)](reinterpret(torch.zeros(6, device=DEVICE, dtype=torch.uint8), tl.float8e4nv), out, 6, BLOCK=8)
    ok = False
except TypeError as e:
    ok = ok and "reinterpreted as fp8e4nv (triton.reinterpret)" in str(e)
print("triton.reinterpret of a tensor's own dtype:", "match" if ok else "differ")


@triton.jit
def _scaled(x, mode, rand_bits):
    if mode == 3:
        return x + rand_bits
    else:
        return x * 2


@triton.jit
def none_then_value(X, R, Y, MODE: tl.constexpr, STOCHASTIC: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    rand_bits = None
    if (MODE) == 3 or STOCHASTIC:
        rand_bits = tl.load(R + offs)
    tl.store(Y + offs, _scaled(x, MODE, rand_bits))


a, r = torch.randn(16, device=DEVICE), torch.randn(16, device=DEVICE)
y4, y3 = torch.empty(16, device=DEVICE), torch.empty(16, device=DEVICE)
none_then_value[(1,)](a, r, y4, MODE=4, STOCHASTIC=False, BLOCK=16)
none_then_value[(1,)](a, r, y3, MODE=3, STOCHASTIC=False, BLOCK=16)
print("a None name rebound in a constexpr branch, given to a helper:", "match" if torch.equal(y4, a * 2) and torch.equal(y3, a + r) else "differ")


@triton.jit
def shifts(A, S, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(A + offs)
    s = tl.load(S + offs)
    u = x.to(tl.uint32, bitcast=True)
    tl.store(Y + offs * 4, x >> s)
    tl.store(Y + offs * 4 + 1, x << s)
    tl.store(Y + offs * 4 + 2, (u >> s).to(tl.int32, bitcast=True))
    tl.store(Y + offs * 4 + 3, (u << s).to(tl.int32, bitcast=True))


def wrap32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def shift_ref(x, n):
    big = n < 0 or n > 31  # PTX clamps the amount at 32 (numpy in Triton's interpreter too): all bits shifted out
    return [(-1 if x < 0 else 0) if big else x >> n, 0 if big else wrap32(x << n),
            0 if big else wrap32((x & 0xFFFFFFFF) >> n), 0 if big else wrap32((x & 0xFFFFFFFF) << n)]


xs = [-1000, 1000, 7, -7, 123456, -5, 1 << 30, 3]
ns = [45, 33, 32, 31, 0, 100, 1, -1]
out = torch.empty(32, device=DEVICE, dtype=torch.int32)
shifts[(1,)](torch.tensor(xs, device=DEVICE, dtype=torch.int32), torch.tensor(ns, device=DEVICE, dtype=torch.int32), out, BLOCK=8)
want = [v for x_, n in zip(xs, ns) for v in shift_ref(x_, n)]
print("shifts by 32 or more:", "match" if out.tolist() == want else f"differ {out.tolist()} {want}")


@triton.jit
def checked(X, n, SCALE_BLOCK, BLOCK: tl.constexpr):
    assert BLOCK < SCALE_BLOCK
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, tl.load(X + offs, mask=offs < n) * 2, mask=offs < n)


try:
    checked[(1,)](torch.ones(8, device=DEVICE), 8, 16, BLOCK=16)
    print("assert without a message: no fault")
except triton.DeviceAssertError as e:
    print("assert without a message:", "match" if "assert BLOCK < SCALE_BLOCK" in str(e) else str(e))


@triton.jit
def adjacent_strings(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, eviction_policy="evict_" "last")
    tl.store(Y + offs, x, mask=offs < n)


x = torch.randn(10, device=DEVICE)
y = torch.empty(10, device=DEVICE)
adjacent_strings[(1,)](x, y, 10, BLOCK=16)
print("adjacent string literals:", "match" if torch.equal(x, y) else "differ")

a, g = torch.randn((5, 40), device=DEVICE), torch.randn((5, 24), device=DEVICE)
e = a[5:5].t() @ g[5:5]
print("a matmul over an empty K of views:", "match" if e.shape == (40, 24) and torch.equal(e, torch.zeros((40, 24), device=DEVICE)) else "differ")


@triton.jit
def fp8_dtypes(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    tl.static_assert(x.dtype == tl.float8e4nv)
    w = x.to(tl.float32)
    tl.static_assert(w.dtype == tl.float32)
    tl.static_assert((w * 3).to(tl.float8e5).dtype == tl.float8e5)
    # y.to(x.dtype) rounds to e4m3 (held as float32 until the store), as Triton's does.
    tl.store(Y + offs, (w * 1.1).to(x.dtype).to(tl.float32), mask=offs < n)


q = (torch.randn(37, device=DEVICE) * 20).to(torch.float8_e4m3fn)
y = torch.full((37,), float("nan"), device=DEVICE)
fp8_dtypes[(1,)](q, y, 37, BLOCK=64)
want = (q.float() * 1.1).to(torch.float8_e4m3fn).float()
print("a loaded fp8 block's dtype, and a value converted to it:", "match" if torch.equal(y, want) else f"differ {y.tolist()[:4]} {want.tolist()[:4]}")
