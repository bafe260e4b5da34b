"""libdevice's functions that have no tl.* function, as library code calls them (FlagGems' lgamma, erfc,
erfcx, tan, trunc, isinf, finitef, nextafter and gcd ops; FBGEMM's float_as_int): one kernel computes
each over the same float32 inputs, special values included (±0, ±inf, NaN, poles, tiny and huge), and
each result is compared with Python's own math module in float64. Floats must be within `ulps` units
in the last place of float32 (plus a small absolute floor where the function crosses 0), NaN exactly
where the reference is NaN, and infinities equal; integers and predicates exactly."""

import math
import struct

import torch

import triton
import triton.language as tl
from triton.language.extra import libdevice

DEVICE = triton.runtime.driver.active.get_active_torch_device()

FLOATS = ["lgamma", "erfc", "erfcx", "tan", "sinh", "cosh", "log10", "exp10", "trunc", "copysign", "nextafter", "rcp_rn", "int_as_float"]
INTS = ["isnan", "isinf", "finitef", "signbit", "float_as_int", "popc", "clz", "ffs"]


@triton.jit
def gamma_kernel(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    """FlagGems' lgamma / special_erfc ops' shape: a block of 1024, in float32."""
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, libdevice.lgamma(x), mask=mask)
    tl.store(out_ptr + n + offs, libdevice.erfc(x), mask=mask)


@triton.jit
def libdevice_kernel(x_ptr, y_ptr, f_ptr, i_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    bits = libdevice.float_as_int(x)
    tl.store(f_ptr + 0 * n + offs, libdevice.lgamma(x), mask=mask)
    tl.store(f_ptr + 1 * n + offs, libdevice.erfc(x), mask=mask)
    tl.store(f_ptr + 2 * n + offs, libdevice.erfcx(x), mask=mask)
    tl.store(f_ptr + 3 * n + offs, libdevice.tan(x), mask=mask)
    tl.store(f_ptr + 4 * n + offs, libdevice.sinh(x), mask=mask)
    tl.store(f_ptr + 5 * n + offs, libdevice.cosh(x), mask=mask)
    tl.store(f_ptr + 6 * n + offs, libdevice.log10(x), mask=mask)
    tl.store(f_ptr + 7 * n + offs, libdevice.exp10(x), mask=mask)
    tl.store(f_ptr + 8 * n + offs, libdevice.trunc(x), mask=mask)
    tl.store(f_ptr + 9 * n + offs, libdevice.copysign(x, y), mask=mask)
    tl.store(f_ptr + 10 * n + offs, libdevice.nextafter(x, y), mask=mask)
    tl.store(f_ptr + 11 * n + offs, libdevice.rcp_rn(x), mask=mask)
    tl.store(f_ptr + 12 * n + offs, libdevice.int_as_float(bits), mask=mask)
    tl.store(i_ptr + 0 * n + offs, libdevice.isnan(x).to(tl.int32), mask=mask)
    tl.store(i_ptr + 1 * n + offs, libdevice.isinf(x).to(tl.int32), mask=mask)
    tl.store(i_ptr + 2 * n + offs, (~libdevice.finitef(x)).to(tl.int32), mask=mask)
    tl.store(i_ptr + 3 * n + offs, (libdevice.signbit(x) != 0).to(tl.int32), mask=mask)
    tl.store(i_ptr + 4 * n + offs, bits, mask=mask)
    tl.store(i_ptr + 5 * n + offs, libdevice.popc(bits), mask=mask)
    tl.store(i_ptr + 6 * n + offs, libdevice.clz(bits), mask=mask)
    tl.store(i_ptr + 7 * n + offs, libdevice.ffs(bits), mask=mask)


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def bits_of(v):
    return struct.unpack("<i", struct.pack("<f", v))[0]


def from_bits(b):
    return struct.unpack("<f", struct.pack("<i", b))[0]


def safe(fn, *args):
    try:
        return fn(*args)
    except (OverflowError, ValueError, ZeroDivisionError):
        return None


def lgamma_ref(x):
    if math.isnan(x):
        return x
    if math.isinf(x) or (x <= 0 and x == math.floor(x)):
        return math.inf
    return math.lgamma(x)


def erfcx_ref(x):
    if math.isnan(x):
        return x
    if x > 25:  # exp(x²) overflows a double; the asymptotic series is exact to float32 here
        return 1 / (x * math.sqrt(math.pi)) * (1 - 1 / (2 * x * x) + 3 / (4 * x ** 4))
    v = safe(lambda t: math.exp(t * t) * math.erfc(t), x)
    return math.inf if v is None else v


def sinh_ref(x):
    v = safe(math.sinh, x)
    return math.copysign(math.inf, x) if v is None else v


def cosh_ref(x):
    v = safe(math.cosh, x)
    return math.inf if v is None else v


def log10_ref(x):
    if math.isnan(x) or x < 0:
        return math.nan
    return -math.inf if x == 0 else math.log10(x)


def exp10_ref(x):
    v = safe(lambda t: 10.0 ** t, x)
    return math.inf if v is None else v


def nextafter_ref(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        return y
    if x == 0:
        return from_bits(1 if y > 0 else -0x7fffffff)
    b = bits_of(x)
    return from_bits(b + 1 if (x < y) == (x > 0) else b - 1)


def tan_ref(x):
    return math.nan if math.isinf(x) else math.tan(x)


def rcp_ref(x):
    return math.copysign(math.inf, math.copysign(1, x)) if x == 0 else 1 / x


REFS = {
    "lgamma": lgamma_ref, "erfc": math.erfc, "erfcx": erfcx_ref, "tan": tan_ref, "sinh": sinh_ref, "cosh": cosh_ref,
    "log10": log10_ref, "exp10": exp10_ref, "trunc": lambda x: x if math.isinf(x) or math.isnan(x) else float(math.trunc(x)),
    "copysign": math.copysign, "nextafter": nextafter_ref, "rcp_rn": rcp_ref, "int_as_float": lambda x: x,
}
# Units in the last place of float32 allowed (a function of x), and an absolute floor. Where a function goes
# through WGSL's exp or exp2, the allowance grows as WGSL's own accuracy for them does, 3 + 2|t| ulp for exp(t)
# (lavapipe's are 1e-6 off at t = 60; tl.exp has the same): erfc's exp(-x²), erfcx's exp(x²) below 0, sinh's and
# cosh's exp(±x), exp10's exp2(x log2 10). lgamma's floor is where it crosses 0 (near 1, 2, and -2.46, -2.75,
# -3.14, -5.01, … where the reflection's terms cancel).
ULPS = {
    "lgamma": (lambda a: 8, 1e-6), "erfc": (lambda a: 11 + 2 * a * a, 1e-38), "erfcx": (lambda a: 11 + 2 * a * a if a < 0 else 8, 0),
    "tan": (lambda a: 8, 0), "sinh": (lambda a: 11 + 2 * abs(a), 0), "cosh": (lambda a: 11 + 2 * abs(a), 0), "log10": (lambda a: 4, 0),
    "exp10": (lambda a: 11 + 2 * abs(a) * 3.33, 0), "trunc": (lambda a: 0, 0), "copysign": (lambda a: 0, 0), "nextafter": (lambda a: 0, 0),
    "rcp_rn": (lambda a: 0, 0), "int_as_float": (lambda a: 0, 0),
}
# WGSL's sin and cos are specified within [-π, π] only (2^-11 absolute); tl.sin of 1e30 is the driver's guess too.
SKIP = {"tan": lambda a: abs(a) > 1e4}
TWO_ARG = {"copysign", "nextafter"}


def close(got, want, ulps, floor):
    """Within `ulps` float32 ulps (plus `floor`) of the float32 nearest `want`; NaN and infinities exactly."""
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want) or abs(want) >= 3.4028235677973366e38:
        return got == math.copysign(math.inf, want)
    want32 = f32(want)
    ulp = max(abs(math.ulp(want32)) * (2 ** 29), 1.4e-45)  # a float32 ulp, from a double's (2^29 = 2^(52-23))
    return abs(got - want32) <= ulps * ulp + floor


torch.manual_seed(0)
specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, 2.0, -1.0, -2.0, -2.5, 0.5, 1e-30, -1e-30, 1e-3, -1e-3, 3.0,
            9.5, 10.5, 30.0, -30.0, 1e30, -1e30, 0.999, 1.001, 1.999, 2.001, 5.5, 6.5, 6.49, -4.7, 88.0, -88.0, 36.0, -36.0]
x = torch.cat([torch.tensor(specials), torch.randn(1500) * 4, torch.rand(500) * 12 - 6, torch.randn(200) * 0.01]).to(DEVICE)
y = torch.cat([torch.tensor([1.0, -1.0, 2.0, -2.0, 0.0, math.nan] * 6)[: len(specials)], torch.randn(2200)]).to(DEVICE)
n = x.numel()
# Poisoned outputs: a result left unwritten is NaN (floats) or -7 (ints), and fails.
f_out = torch.full((len(FLOATS), n), math.nan, device=DEVICE)
i_out = torch.full((len(INTS), n), -7, dtype=torch.int32, device=DEVICE)
# One element an invocation: a shader compiler given this kernel's 21 functions for several elements an invocation
# takes minutes (lavapipe: 160 s at 8), while each alone at 32 an invocation takes a second (below).
libdevice_kernel[(triton.cdiv(n, 32),)](x, y, f_out, i_out, n, BLOCK=32)

xs = [f32(v) for v in x.tolist()]
ys = [f32(v) for v in y.tolist()]
fs = f_out.tolist()
is_ = i_out.tolist()
for k, name in enumerate(FLOATS):
    ulps, floor = ULPS[name]
    bad = []
    for j, (a, b) in enumerate(zip(xs, ys)):
        if name in SKIP and SKIP[name](a):
            continue
        want = REFS[name](a, b) if name in TWO_ARG else REFS[name](a)
        if not close(fs[k][j], want, 0 if math.isinf(a) or math.isnan(a) else ulps(a), floor):
            bad.append((a, b, fs[k][j], want) if name in TWO_ARG else (a, fs[k][j], want))
    print(f"{name}: match" if not bad else f"{name}: differ at {len(bad)} of {n}, first {bad[:3]}")

INT_REFS = {
    "isnan": lambda a: int(math.isnan(a)), "isinf": lambda a: int(math.isinf(a)), "finitef": lambda a: int(not math.isfinite(a)),
    "signbit": lambda a: int(math.copysign(1, a) < 0), "float_as_int": bits_of,
    "popc": lambda a: bin(bits_of(a) & 0xffffffff).count("1"),
    "clz": lambda a: 32 - (bits_of(a) & 0xffffffff).bit_length(),
    "ffs": lambda a: ((b := bits_of(a) & 0xffffffff) & -b).bit_length(),
}
for k, name in enumerate(INTS):
    bad = [(a, is_[k][j], INT_REFS[name](a)) for j, a in enumerate(xs) if is_[k][j] != INT_REFS[name](a) and not (name == "signbit" and math.isnan(a))]
    print(f"{name}: match" if not bad else f"{name}: differ at {len(bad)} of {n}, first {bad[:3]}")

# The same functions 32 to an invocation (a block of 1024): the same results.
wide = torch.full((2, n), math.nan, device=DEVICE)
gamma_kernel[(triton.cdiv(n, 1024),)](x, wide, n, BLOCK_SIZE=1024)
same = wide.tolist() == [fs[0], fs[1]] or all(
    (a == b) or (math.isnan(a) and math.isnan(b)) for row, ref in zip(wide.tolist(), (fs[0], fs[1])) for a, b in zip(row, ref))
print("lgamma, erfc in blocks of 1024:", "match" if same else "differ")
