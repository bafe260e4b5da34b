"""bfloat16 kernel arguments and values (bench/NOTES.md §76): torch.bfloat16 tensors passed to kernels, loaded as
tl.bfloat16 blocks, computed on and stored back. Each kernel is checked against a reference in Python floats (doubles)
with bf16 rounding applied where Triton rounds: after each op whose result dtype is bf16, and at a store to a bf16
pointer. Outputs start as NaN; lengths are odd and off the blocks, and the copy writes at an odd offset so that the two
bf16s of a word are written by different programs."""

import math
import random
import struct

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def bf16(x):
    """x rounded to the nearest bf16 (through f32, ties to even), as torch's .to(torch.bfloat16)."""
    if math.isnan(x):
        return x
    try:
        bits = struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def f32(x):
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def rand_bf16(n, scale=1.0):
    return [bf16(random.gauss(0.0, scale)) for _ in range(n)]


def close(got, want, what, rtol=1.6e-2, atol=1e-5):
    assert len(got) == len(want), (what, len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        if math.isnan(w):
            assert math.isnan(g), (what, i, g, w)
        elif g != w:
            assert abs(g - w) <= atol + rtol * abs(w), (what, i, g, w)


def exact(got, want, what):
    close(got, want, what, rtol=0.0, atol=0.0)


@triton.jit
def add_kernel(X, Y, Out, Cast, Wide, start, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    y = tl.load(Y + offs, mask=mask)
    s = x + y  # bf16 + bf16: a bf16, rounded
    tl.store(Out + start + offs, s * 3.0, mask=mask)  # an odd start: a word's two halves by two programs
    tl.store(Cast + offs, (x.to(tl.float32) * 1.001).to(tl.bfloat16), mask=mask)
    tl.store(Wide + offs, x.to(tl.float32) + y, mask=mask)  # f32 + bf16: f32


@triton.jit
def from_f32_kernel(X, Out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Out + offs, tl.load(X + offs, mask=offs < n), mask=offs < n)  # the store rounds


@triton.jit
def dtypes_kernel(X, H, Flags):
    # Triton's dtypes of bf16 values, as flags (kernel-lab check compiles this file with f32 pointers: no static_assert).
    x = tl.load(X + tl.arange(0, 256))
    h = tl.load(H + tl.arange(0, 256))
    i = tl.arange(0, 256)
    y = x * 2
    tl.store(Flags + 0, 1 if x.dtype == tl.bfloat16 else 0)
    tl.store(Flags + 1, 1 if (x + y).dtype == tl.bfloat16 else 0)  # bf16 + bf16: bf16
    tl.store(Flags + 2, 1 if (x + 1.5).dtype == tl.bfloat16 else 0)  # a float constant adopts bf16
    tl.store(Flags + 3, 1 if (x / y).dtype == tl.float32 else 0)  # Triton: / of bf16s is f32
    tl.store(Flags + 4, 1 if (x % 2.0).dtype == tl.float32 else 0)  # and %
    tl.store(Flags + 5, 1 if (x + y.to(tl.float32)).dtype == tl.float32 else 0)  # bf16 + f32: f32
    tl.store(Flags + 6, 1 if (x + i).dtype == tl.float32 else 0)  # bf16 + int32 block: f32
    tl.store(Flags + 7, 1 if (x + 3).dtype == tl.bfloat16 else 0)  # an int constant adopts bf16
    tl.store(Flags + 8, 1 if (x + h).dtype == tl.float16 else 0)  # bf16 + f16: f16 (Triton's rule 3 comes first)
    tl.store(Flags + 9, 1 if tl.exp(x).dtype == tl.bfloat16 else 0)
    tl.store(Flags + 10, 1 if tl.dot(tl.reshape(x, (16, 16)), tl.reshape(y, (16, 16))).dtype == tl.float32 else 0)
    tl.store(Flags + 11, 1 if tl.sum(x, 0).dtype == tl.bfloat16 else 0)
    tl.store(Flags + 12, 1 if X.dtype.element_ty == tl.bfloat16 else 0)


def check_dtypes():
    x = torch.ones(256, dtype=torch.bfloat16, device=DEVICE)
    h = torch.ones(256, dtype=torch.float16, device=DEVICE)
    flags = torch.zeros(13, dtype=torch.int32, device=DEVICE)
    dtypes_kernel[(1,)](x, h, flags)
    assert flags.cpu().tolist() == [1] * 13, flags.cpu().tolist()
    print("bf16 dtypes as Triton's: 13 rules hold")


def check_add():
    n, block, start = 1001, 64, 3
    xs, ys = rand_bf16(n), rand_bf16(n)
    x = torch.tensor(xs, dtype=torch.bfloat16).to(DEVICE)
    y = torch.tensor(ys, dtype=torch.bfloat16).to(DEVICE)
    out = torch.full((n + start + 2,), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    cast = torch.full((n,), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    wide = torch.full((n,), float("nan"), device=DEVICE)
    add_kernel[(triton.cdiv(n, block),)](x, y, out, cast, wide, start, n, BLOCK=block)
    assert out.dtype == torch.bfloat16
    got = out.float().cpu().tolist()
    exact(got[start:start + n], [bf16(bf16(a + b) * 3.0) for a, b in zip(xs, ys)], "bf16 add")
    assert all(math.isnan(v) for v in got[:start] + got[start + n:]), "the copy wrote outside its range"
    exact(cast.float().cpu().tolist(), [bf16(f32(a * f32(1.001))) for a in xs], "cast")
    exact(wide.cpu().tolist(), [f32(a + b) for a, b in zip(xs, ys)], "f32 + bf16")
    # f32 → bf16 at a store: ties to even, NaN, infinities, overflow, subnormals
    special = [1.0 + 2**-8, 1.0 + 3 * 2**-8, -(1.0 + 2**-8), float("nan"), float("inf"), -float("inf"), 3.4e38, 1e-40, -1e-41, 0.0]
    vals = special + [random.gauss(0, 100) for _ in range(77 - len(special))]
    src = torch.tensor(vals, dtype=torch.float32).to(DEVICE)
    dst = torch.full((len(vals),), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    from_f32_kernel[(triton.cdiv(len(vals), 32),)](src, dst, len(vals), BLOCK=32)
    exact(dst.float().cpu().tolist(), [bf16(f32(v)) for v in vals], "f32 to bf16")
    assert dst.float().cpu().tolist()[:3] == [1.0, 1.0 + 2**-6, -1.0]
    print(f"bf16 add, cast and store rounding: {n} elements at offset {start} match")


@triton.jit
def rms_norm_kernel(X, W, Y, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0)
    inv = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    y = (x * inv).to(w.dtype) * w  # as unsloth's: normed cast to bf16, times a bf16 weight (rounded)
    tl.store(Y + row * stride + cols, y, mask=mask)


@triton.jit
def softmax_kernel(X, Y, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(Y + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def check_rows():
    rows, cols = 7, 75
    xs = [rand_bf16(cols) for _ in range(rows)]
    ws = rand_bf16(cols)
    x = torch.tensor(xs, dtype=torch.bfloat16).to(DEVICE)
    w = torch.tensor(ws, dtype=torch.bfloat16).to(DEVICE)
    y = torch.full((rows, cols), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    rms_norm_kernel[(rows,)](x, w, y, cols, cols, 1e-6, BLOCK=128)
    want = []
    for r in xs:
        inv = 1 / math.sqrt(sum(v * v for v in r) / cols + 1e-6)
        want.append([bf16(bf16(v * inv) * wv) for v, wv in zip(r, ws)])
    # Rounding to bf16 twice can land one bf16 step off where f32's inv differs from the double's: 2 ulps.
    close(sum(y.float().cpu().tolist(), []), sum(want, []), "rms norm", rtol=2 * 2**-8)
    s = torch.full((rows, cols), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    softmax_kernel[(rows,)](x, s, cols, cols, BLOCK=128)
    want = []
    for r in xs:
        m = max(r)
        e = [math.exp(v - m) for v in r]
        want.append([bf16(v / sum(e)) for v in e])
    close(sum(s.float().cpu().tolist(), []), sum(want, []), "softmax", rtol=2**-8)
    print(f"bf16 rms norm and softmax: {rows}x{cols} match")


@triton.jit
def matmul_kernel(A, B, C, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * K + k + rk[None, :], mask=(rm[:, None] < M) & (k + rk[None, :] < K), other=0.0)
        b = tl.load(B + (k + rk[:, None]) * N + rn[None, :], mask=(k + rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def check_matmul():
    M, N, K = 37, 45, 51
    a_rows = [rand_bf16(K) for _ in range(M)]
    b_rows = [rand_bf16(N) for _ in range(K)]
    a = torch.tensor(a_rows, dtype=torch.bfloat16).to(DEVICE)
    b = torch.tensor(b_rows, dtype=torch.bfloat16).to(DEVICE)
    c = torch.full((M, N), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    matmul_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](a, b, c, M, N, K, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
    want = [[bf16(sum(a_rows[i][k] * b_rows[k][j] for k in range(K))) for j in range(N)] for i in range(M)]
    close(sum(c.float().cpu().tolist(), []), sum(want, []), "matmul", rtol=2**-8, atol=1e-4)
    print(f"bf16 tl.dot matmul: {M}x{K} by {K}x{N} match")


@triton.jit
def moves_kernel(X, Sorted, Flipped, Trans, Cum, Rows, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(X + offs)
    tl.store(Sorted + offs, tl.sort(v, 0))
    tl.store(Flipped + offs, tl.flip(v, 0))
    t = tl.trans(tl.reshape(v, (2, BLOCK // 2)))  # [BLOCK/2, 2]: element (i, j) is v[j * BLOCK/2 + i]
    tl.store(Trans + offs, tl.reshape(t, (BLOCK,)))
    tl.store(Cum + offs, tl.cumsum(v, 0))  # bf16 adds, each rounded (the scan's order is its own)
    tl.store(Rows + tl.arange(0, 2), tl.max(tl.reshape(v, (2, BLOCK // 2)), axis=1))


def check_moves():
    block = 64
    xs = rand_bf16(block)
    x = torch.tensor(xs, dtype=torch.bfloat16).to(DEVICE)
    outs = [torch.full((n,), float("nan"), dtype=torch.bfloat16, device=DEVICE) for n in (block, block, block, block, 2)]
    moves_kernel[(1,)](x, *outs, BLOCK=block)
    got = [o.float().cpu().tolist() for o in outs]
    exact(got[0], sorted(xs), "sort")
    exact(got[1], xs[::-1], "flip")
    exact(got[2], [xs[j * (block // 2) + i] for i in range(block // 2) for j in range(2)], "trans")
    close(got[3], [sum(xs[:i + 1]) for i in range(block)], "cumsum", rtol=2**-6, atol=0.1)
    exact(got[4], [max(xs[:block // 2]), max(xs[block // 2:])], "max")
    print(f"bf16 sort, flip, trans, cumsum and max of {block} match")


random.seed(0)
check_dtypes()
check_moves()
check_add()
check_rows()
check_matmul()
