"""Scalar kernel parameters annotated with a dtype (bench/NOTES.md §81). Triton's jit.py makes such an argument the
annotated type whatever the number (KernelParam.annotation_type) and never specializes it as 1; its launcher packs it
(driver.py): `x: tl.float16` with pack_fp16 (PyFloat_Pack2: the double rounded to the nearest half, ties to even),
`n: tl.int64` as 64 bits, `u: tl.uint32` as 32 unsigned bits, `s: tl.float32` as an f32 even when an int is passed.
Fresh random halves that rounding and truncating tell apart, 1001 elements off the block, outputs poisoned,
references in Python doubles with f16 rounding by struct's 'e' format."""

import random
import struct
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def annotated_kernel(X, Y, Z, W, h: tl.float16, n: tl.int64, u: tl.uint32, s: tl.float32, i: tl.int32, BLOCK: tl.constexpr):
    tl.static_assert(h.dtype == tl.float16)
    tl.static_assert(n.dtype == tl.int64)
    tl.static_assert(u.dtype == tl.uint32)
    tl.static_assert(s.dtype == tl.float32)
    tl.static_assert(i.dtype == tl.int32)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    tl.store(Y + offs, x * h + h, mask=mask)
    # u - 1 wraps in uint32 (0 - 1 is 4294967295), so // 2 is 2147483647; an int32 u would give 0.
    tl.store(Z + offs, ((u - 1) // 2 + offs * 0).to(tl.int32), mask=mask)
    # s / 2 with s an f32 is a float division whatever number was passed; i is an int32 even when 1.
    tl.store(W + offs, s / 2 + i + offs, mask=mask)


def half(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def check():
    rng = random.Random(11)
    n, BLOCK = 1001, 256
    x = (torch.randn(n) * 3).to(torch.float16)
    for trial in range(3):
        h = rng.uniform(-9, 9)
        # A number whose nearest half is above it in magnitude: truncating (as bf16's packing does) would differ.
        while abs(half(h)) <= abs(h):
            h = rng.uniform(-9, 9)
        y = torch.full((n + 5,), float("nan"), dtype=torch.float16).to(DEVICE)
        z = torch.full((n + 5,), -7, dtype=torch.int32).to(DEVICE)
        w = torch.full((n + 5,), float("nan")).to(DEVICE)
        annotated_kernel[(triton.cdiv(n, BLOCK),)](x.to(DEVICE), y, z, w, h, n, 0, 3, 1, BLOCK=BLOCK)
        hh = half(h)
        want_y = [half(half(v * hh) + hh) for v in x.float().tolist()]
        got_y = y.float().cpu().tolist()
        assert got_y[:n] == want_y, [(k, a, b) for k, (a, b) in enumerate(zip(got_y, want_y)) if a != b][:5]
        assert z.cpu().tolist()[:n] == [2147483647] * n, z.cpu().tolist()[:5]
        assert w.cpu().tolist()[:n] == [f32(1.5 + 1 + k) for k in range(n)], w.cpu().tolist()[:5]
        assert all(v != v for v in got_y[n:]) and z.cpu().tolist()[n:] == [-7] * 5, "past n must stay poisoned"
    print(f"h: tl.float16 takes a float rounded to the nearest half, n: tl.int64, u: tl.uint32 wraps, s: tl.float32 given an int, i: tl.int32 given 1: {n} elements, 3 scalars, exact")


check()
