"""bf16 scalar kernel parameters (bench/NOTES.md §79). A Python float passed to a kernel is an fp32 argument in Triton
(jit.py specialize_impl: `float` -> "fp32"), annotated or not by use; a parameter annotated with a dtype
(`s: tl.bfloat16`) takes that type instead (jit.py KernelParam.annotation_type, never specialized), and the launcher
packs the number as driver.py's pack_bf16 does: `(float)f`, then the f32's top 16 bits -- truncated toward zero,
not rounded to nearest as `.to(tl.bfloat16)` in a kernel is. In the kernel `s.dtype` is tl.bfloat16: `x * s` of a
bf16 block is bf16 (rounded), `w * s` of an f32 block f32. Fresh random scalars where truncating and rounding differ,
1001 elements off the block, outputs poisoned with NaN, references in float64 (bf16 rounding where the kernel rounds)."""

import random
import struct
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def scale_kernel(X, W, Y, Z, s: tl.bfloat16, t, n, BLOCK: tl.constexpr):
    tl.static_assert(s.dtype == tl.bfloat16)
    tl.static_assert(t.dtype == tl.float32)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    w = tl.load(W + offs, mask=mask, other=0.0)
    tl.store(Y + offs, x * s + s, mask=mask)
    tl.store(Z + offs, w * s + t, mask=mask)


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def from_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bf16_round(v):
    """Round to nearest even through f32, as kl_bf16 / torch (finite values only here)."""
    b = f32_bits(v)
    return from_bits(((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16)


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def check():
    rng = random.Random(7)
    n, BLOCK = 1001, 256
    x = (torch.randn(n) * 3).to(torch.bfloat16)
    w = torch.randn(n) * 3
    for trial in range(3):
        s = rng.uniform(-9, 9)
        while f32_bits(s) & 0xFFFF <= 0x8000:
            s = rng.uniform(-9, 9)
        s_arg = from_bits(f32_bits(s) & 0xFFFF0000)
        assert s_arg != bf16_round(s)
        t = rng.uniform(-1, 1)
        y = torch.full((n + 5,), float("nan"), dtype=torch.bfloat16).to(DEVICE)
        z = torch.full((n + 5,), float("nan")).to(DEVICE)
        scale_kernel[(triton.cdiv(n, BLOCK),)](x.to(DEVICE), w.to(DEVICE), y, z, s, t, n, BLOCK=BLOCK)
        xs, ws = x.float().tolist(), w.tolist()
        want_y = [bf16_round(bf16_round(v * s_arg) + s_arg) for v in xs]
        want_z = [f32(f32(v * s_arg) + f32(t)) for v in ws]
        got_y, got_z = y.float().cpu().tolist(), z.cpu().tolist()
        assert got_y[:n] == want_y, [(i, a, b) for i, (a, b) in enumerate(zip(got_y, want_y)) if a != b][:5]
        assert got_z[:n] == want_z, [(i, a, b) for i, (a, b) in enumerate(zip(got_z, want_z)) if a != b][:5]
        assert all(v != v for v in got_y[n:] + got_z[n:]), "past n must stay poisoned"
    print(f"s: tl.bfloat16 takes a float as Triton's launcher packs it (the f32's top 16 bits): {n} elements, 3 scalars, exact")
    # An int for the annotated parameter is a bf16 too (Triton doesn't specialize it).
    y = torch.full((n,), float("nan"), dtype=torch.bfloat16).to(DEVICE)
    z = torch.full((n,), float("nan")).to(DEVICE)
    scale_kernel[(triton.cdiv(n, BLOCK),)](x.to(DEVICE), w.to(DEVICE), y, z, 259, 0.5, n, BLOCK=BLOCK)
    want_y = [bf16_round(bf16_round(v * 258.0) + 258.0) for v in x.float().tolist()]
    assert y.float().cpu().tolist() == want_y
    print("s: tl.bfloat16 given the int 259: 258.0 (truncated; rounded it would be 260.0), exact")


check()
