"""deepseek-ai/DeepSeek-V3's fp8 kernels as published (test/python/deepseek_v3_kit/kernel.py, unchanged): act_quant
(block-wise quantisation of activations to torch.float8_e4m3fn, with and without scale_fmt="ue8m0"), weight_dequant
and fp8_gemm (autotuned over the library's configs) through their own entry points, against the same arithmetic in
Kernel Lab's torch. First, fp8 e4m3fn itself, against a reference written here from the OCP FP8 spec (S.EEEE.MMM,
bias 7, no infinities, S.1111.111 NaN, largest 448): every one of the 256 bit patterns loaded by a kernel, and a sweep
of f32 values converted in a kernel (x.to(tl.float8e4nv): nearest, ties to even, saturating at +-448 as Triton's
cvt.rn.satfinite) and by torch (.to(torch.float8_e4m3fn): nearest, ties to even, NaN past 448 as torch's)."""

import bisect
import math
import random

import torch
import triton
import triton.language as tl
from deepseek_v3_kit.kernel import act_quant, weight_dequant, fp8_gemm

DEVICE = triton.runtime.driver.active.get_active_torch_device()


# -- the reference: OCP FP8 E4M3 from its definition ----------------------------------------------------
def e4m3_value(bits):
    sign = -1.0 if bits & 0x80 else 1.0
    e, m = (bits >> 3) & 15, bits & 7
    if e == 15 and m == 7:
        return math.nan
    return sign * (m / 8 * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))


POSITIVE = [e4m3_value(b) for b in range(0x7f)]  # 0 … 448, ascending with the bit pattern


def e4m3_round(x, saturate):
    """The e4m3fn value nearest x (a tie to the even bit pattern); past 448: 448 (saturate) or NaN."""
    if math.isnan(x):
        return math.nan
    a = abs(x)
    if a > 448:
        # Above 448 the next step would be 480: [448, 464] rounds to 448 (464 is a tie, 448's pattern is even).
        big = saturate or a <= 464
        return math.copysign(448.0 if big else math.nan, x)
    i = bisect.bisect_left(POSITIVE, a)
    if POSITIVE[i] == a:
        r = a
    else:
        lo, hi = POSITIVE[i - 1], POSITIVE[i]
        r = lo if a - lo < hi - a else hi if hi - a < a - lo else (lo if (i - 1) % 2 == 0 else hi)
    return math.copysign(r, x)


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


@triton.jit
def fp8_load_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    tl.store(y_ptr + offs, x, mask=offs < n)


@triton.jit
def fp8_convert_kernel(x_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(q_ptr + offs, x, mask=offs < n)  # a store through an fp8 pointer converts
    tl.store(r_ptr + offs, x.to(tl.float8e4nv).to(tl.float32), mask=offs < n)


# Every bit pattern, as torch makes it from its value (-NaN gives 0xff).
patterns = [e4m3_value(b) for b in range(256)]
patterns[0xff] = -math.nan
q = torch.tensor(patterns, device=DEVICE).to(torch.float8_e4m3fn)
assert q.dtype == torch.float8_e4m3fn and q.element_size() == 1
loaded = torch.empty(256, device=DEVICE)
fp8_load_kernel[(3,)](q, loaded, 256, BLOCK=128)
got = loaded.tolist()
exact = sum(same(got[b], e4m3_value(b)) for b in range(256))
print(f"fp8 e4m3fn bit patterns loaded exactly: {exact} of 256")

# Values around every rounding boundary (each e4m3fn value and each midpoint, one f32 step either side), the
# edges (448, 464, 480, the subnormals, 2^-10), specials, and random values over every exponent.
sweep = [0.0, -0.0, math.inf, -math.inf, math.nan, 448.0, 464.0, 480.0, 1e30, 2.0 ** -10, 2.0 ** -11, 3 * 2.0 ** -11, 1e-40]
points = POSITIVE + [(a + b) / 2 for a, b in zip(POSITIVE, POSITIVE[1:])] + [464.0, 480.0]
for p in points:
    for v in (p, p + 2 ** -23 * max(p, 2.0 ** -126), p - 2 ** -23 * max(p, 2.0 ** -126)):
        sweep += [v, -v]
rng = random.Random(0)
sweep += [rng.choice((-1, 1)) * rng.uniform(1, 2) * 2.0 ** rng.randint(-14, 10) for _ in range(8000)]
x = torch.tensor(sweep, device=DEVICE)
xs = x.tolist()  # as f32
stored = torch.empty(len(xs), dtype=torch.float8_e4m3fn, device=DEVICE)
rounded = torch.empty(len(xs), device=DEVICE)
fp8_convert_kernel[(triton.cdiv(len(xs), 1024),)](x, stored, rounded, len(xs), BLOCK=1024)
kernel_ok = sum(same(a, e4m3_round(v, True)) for a, v in zip(stored.float().tolist(), xs))
to_ok = sum(same(a, e4m3_round(v, True)) for a, v in zip(rounded.tolist(), xs))
torch_ok = sum(same(a, e4m3_round(v, False)) for a, v in zip(x.to(torch.float8_e4m3fn).to(torch.float32).tolist(), xs))
print(f"f32 values stored through an fp8 pointer as the reference rounds them: {kernel_ok} of {len(xs)}")
print(f"f32 values x.to(tl.float8e4nv) as the reference rounds them: {to_ok} of {len(xs)}")
print(f"f32 values torch .to(torch.float8_e4m3fn) as the reference rounds them: {torch_ok} of {len(xs)}")
fi = torch.finfo(torch.float8_e4m3fn)
print("finfo(float8_e4m3fn):", fi.max, fi.tiny, fi.eps, fi.bits)


# e5m2 (torch.float8_e5m2, tl.float8e5): S.EEEEE.MM, bias 15, an f16's top byte: S.11111.00 inf, S.11111.xx NaN, largest
# 57344. Past it torch rounds to inf (IEEE), a kernel saturates. The conversion kernel takes the dtype from its pointer.
def e5m2_value(bits):
    sign = -1.0 if bits & 0x80 else 1.0
    e, m = (bits >> 2) & 31, bits & 3
    if e == 31:
        return sign * math.inf if m == 0 else math.nan
    return sign * (m / 4 * 2.0 ** -14 if e == 0 else (1 + m / 4) * 2.0 ** (e - 15))


E5M2_POSITIVE = [e5m2_value(b) for b in range(0x7c)]


def e5m2_round(x, saturate):
    if math.isnan(x):
        return math.nan
    a = abs(x)
    if a >= 61440:  # 61440, halfway from 57344 (odd pattern) to 65536 (inf, even), rounds up
        return math.copysign(57344.0 if saturate else math.inf, x)
    if a >= 57344:
        return math.copysign(57344.0, x)
    i = bisect.bisect_left(E5M2_POSITIVE, a)
    if E5M2_POSITIVE[i] == a:
        r = a
    else:
        lo, hi = E5M2_POSITIVE[i - 1], E5M2_POSITIVE[i]
        r = lo if a - lo < hi - a else hi if hi - a < a - lo else (lo if (i - 1) % 2 == 0 else hi)
    return math.copysign(r, x)


@triton.jit
def fp8_convert_as_pointer_kernel(x_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(q_ptr + offs, x, mask=offs < n)
    tl.store(r_ptr + offs, x.to(q_ptr.dtype.element_ty).to(tl.float32), mask=offs < n)


patterns = [e5m2_value(b) for b in range(256)]
q = torch.tensor(patterns, device=DEVICE).to(torch.float8_e5m2)
assert q.dtype == torch.float8_e5m2 and q.element_size() == 1
fp8_load_kernel[(3,)](q, loaded, 256, BLOCK=128)
got = loaded.tolist()
print(f"fp8 e5m2 bit patterns loaded exactly: {sum(same(got[b], e5m2_value(b)) for b in range(256))} of 256")
sweep = [0.0, -0.0, math.inf, -math.inf, math.nan, 57344.0, 61440.0, 65536.0, 1e30, 2.0 ** -17, 2.0 ** -16, 1e-40]
points = E5M2_POSITIVE + [(a + b) / 2 for a, b in zip(E5M2_POSITIVE, E5M2_POSITIVE[1:])] + [61440.0]
for p in points:
    for v in (p, p + 2 ** -23 * max(p, 2.0 ** -126), p - 2 ** -23 * max(p, 2.0 ** -126)):
        sweep += [v, -v]
sweep += [rng.choice((-1, 1)) * rng.uniform(1, 2) * 2.0 ** rng.randint(-18, 17) for _ in range(8000)]
x = torch.tensor(sweep, device=DEVICE)
xs = x.tolist()
stored = torch.empty(len(xs), dtype=torch.float8_e5m2, device=DEVICE)
rounded = torch.empty(len(xs), device=DEVICE)
fp8_convert_as_pointer_kernel[(triton.cdiv(len(xs), 1024),)](x, stored, rounded, len(xs), BLOCK=1024)
kernel_ok = sum(same(a, e5m2_round(v, True)) for a, v in zip(stored.float().tolist(), xs))
to_ok = sum(same(a, e5m2_round(v, True)) for a, v in zip(rounded.tolist(), xs))
torch_ok = sum(same(a, e5m2_round(v, False)) for a, v in zip(x.to(torch.float8_e5m2).float().tolist(), xs))
print(f"e5m2: f32 values stored through an fp8 pointer as the reference rounds them: {kernel_ok} of {len(xs)}")
print(f"e5m2: f32 values x.to(q_ptr.dtype.element_ty) as the reference rounds them: {to_ok} of {len(xs)}")
print(f"e5m2: f32 values torch .to(torch.float8_e5m2) as the reference rounds them: {torch_ok} of {len(xs)}")


# -- DeepSeek-V3's entry points --------------------------------------------------------------------------
def check(name, got, ref, atol=0.0, rtol=0.0):
    diff = (got.float() - ref.float()).abs()
    ok = bool((diff <= atol + rtol * ref.float().abs()).all())
    print(name + ":", "match" if ok else f"differ by {diff.max().item()}")


torch.manual_seed(0)
x = torch.randn(3, 5, 256, device=DEVICE) * 4
for fmt in (None, "ue8m0"):
    y, s = act_quant(x, 128, fmt)
    blocks = x.reshape(-1, 128)
    ref_s = blocks.abs().amax(dim=1).clamp(min=1e-4) / 448.0
    if fmt == "ue8m0":
        ref_s = torch.exp2(torch.ceil(torch.log2(ref_s)))
    ref_y = (blocks / ref_s[:, None]).to(torch.float8_e4m3fn)
    assert y.dtype == torch.float8_e4m3fn and y.shape == x.shape and s.shape == (3, 5, 2)
    check(f"act_quant scale ({fmt})", s.reshape(-1), ref_s, rtol=1e-6)
    # One f32 step of the division's rounding may move a value across an fp8 midpoint: within one fp8 step (1/8 relative).
    check(f"act_quant values ({fmt})", y.reshape(-1, 128).float(), ref_y.float(), rtol=0.125)
    exact = int((y.reshape(-1, 128).float() == ref_y.float()).sum().item())
    print(f"act_quant values ({fmt}) equal to torch's: {exact} of {y.numel()}")

M, N = 200, 300  # off the 128 blocks in both
w = (torch.randn(M, N, device=DEVICE) * 100).to(torch.float8_e4m3fn)
ws = torch.rand(2, 3, device=DEVICE) + 0.5
dq = weight_dequant(w, ws)
ref = w.float() * ws.repeat_interleave(128, 0)[:M].repeat_interleave(128, 1)[:, :N]
check("weight_dequant", dq, ref)

M, K, N = 37, 256, 160
a, a_s = act_quant(torch.randn(M, K, device=DEVICE), 128)
b = (torch.randn(N, K, device=DEVICE) * 50).to(torch.float8_e4m3fn)
b_s = torch.rand(2, 2, device=DEVICE) * 0.01
c = fp8_gemm(a, a_s, b, b_s)
a_full = a.float() * a_s.repeat_interleave(128, 1)
b_full = b.float() * b_s.repeat_interleave(128, 0)[:N].repeat_interleave(128, 1)
check("fp8_gemm", c, a_full @ b_full.t(), atol=1e-4, rtol=1e-4)
