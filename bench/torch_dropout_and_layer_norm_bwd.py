"""Dropout and layer-norm backward for bench/torch_bench.py: PyTorch and Triton tutorials 04 and 05.

The Triton kernels are the tutorials' own (triton-lang/triton python/tutorials/04-low-memory-dropout.py
`_seeded_dropout`, 05-layer-norm.py `_layer_norm_bwd_dx_fused` and `_layer_norm_bwd_dwdb`, as of
commit 5456992, Triton 3.x; MIT licence), launched with the tutorials' parameters. Case names and
byte counts are bench/suite.ts's (bench/dropout-case.ts, bench/layer-norm-backward-case.ts):

- dropout-*: x read and the output written once, 8 bytes an element (torch's dropout also writes a
  1-byte mask, not counted).
- layernorm-bwd-MxN: x and dy read, dx written, w read, dW and db written, mean and rstd read:
  4 * (3MN + 3N + 2M) bytes; the partial dW/db rows are not counted on either side.
"""
import random as py_random
import struct

import torch
import triton
import triton.language as tl

P = 0.5
SEED = 123
EPS = 1e-5


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    # Tutorial 04, as written there.
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def triton_dropout(x, out, p, seed):
    # The tutorial's `seeded_dropout`, with the output passed in rather than allocated (as for add).
    n = x.numel()
    _seeded_dropout[(triton.cdiv(n, 1024),)](x, out, n, p, seed, BLOCK_SIZE=1024)


@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # Tutorial 05, as written there: dx of one row, and its dW/db added into one of GROUP_SIZE_M
    # partial rows under a spin lock.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # Tutorial 05, as written there: the sum of the partial rows, a block of columns per program.
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


def triton_layer_norm_bwd(dy, x, w, mean, rstd):
    """The body of the tutorial's LayerNorm.backward (without autograd): its heuristics, buffers
    (locks and partial sums zeroed, as the lock protocol needs) and both launches."""
    M, N = x.shape
    block = min(65536 // x.element_size(), triton.next_power_of_2(N))
    num_warps = min(max(block // 256, 1), 8)
    GROUP_SIZE_M = 64
    if N <= 8192: GROUP_SIZE_M = 96  # noqa: E701 (the tutorial's lines)
    if N <= 4096: GROUP_SIZE_M = 128  # noqa: E701
    if N <= 1024: GROUP_SIZE_M = 256  # noqa: E701
    locks = torch.zeros(2 * GROUP_SIZE_M, dtype=torch.int32, device=w.device)
    _dw = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
    _db = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
    dw = torch.empty((N, ), dtype=w.dtype, device=w.device)
    db = torch.empty((N, ), dtype=w.dtype, device=w.device)
    dx = torch.empty_like(dy)
    _layer_norm_bwd_dx_fused[(M, )](dx, dy, _dw, _db, x, w, mean, rstd, locks, x.stride(0), N,
                                    BLOCK_SIZE_N=block, GROUP_SIZE_M=GROUP_SIZE_M, num_warps=num_warps)
    _layer_norm_bwd_dwdb[(triton.cdiv(N, 128), )](_dw, _db, dw, db, min(GROUP_SIZE_M, M), N,
                                                 BLOCK_SIZE_M=32, BLOCK_SIZE_N=128, num_ctas=1)
    return dx, dw, db


def _philox_first_word(seed, offset):
    """Philox 4x32-10 on counter (offset, 0, 0, 0), key (seed, 0): Triton's randint, in Python."""
    m32 = 0xFFFFFFFF
    c0, c1, c2, c3, k0, k1 = offset & m32, 0, 0, 0, seed & m32, 0
    for _ in range(10):
        a, b = c0, c2
        c0 = (((0xCD9E8D57 * b) >> 32) ^ c1 ^ k0) & m32
        c2 = (((0xD2511F53 * a) >> 32) ^ c3 ^ k1) & m32
        c1, c3 = (0xCD9E8D57 * b) & m32, (0xD2511F53 * a) & m32
        k0, k1 = (k0 + 0x9E3779B9) & m32, (k1 + 0xBB67AE85) & m32
    return c0


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def _kept(seed, offset, p):
    """Triton's uint_to_uniform_float of that word (the word as i32, folded, times 2^-31, in f32) > p."""
    x = _philox_first_word(seed, offset)
    x = x - (1 << 32) if x >= 1 << 31 else x
    return _f32(_f32(-x - 1 if x < 0 else x) * _f32(4.6566127342e-10)) > p


def dropout_error(x, out, p, seed=None):
    """Relative error of the kept elements (each x / (1 - p)); with a seed, the share of 512 sampled
    elements whose keep differs from Philox's (Kernel Lab's stream is the same), else how far the
    kept share is from 1 - p."""
    kept = out != 0
    err = ((out[kept].double() - x[kept].double() / (1 - p)).norm() / (x[kept].double() / (1 - p)).norm()).item()
    if seed is None:
        return err + abs(kept.double().mean().item() - (1 - p))
    offsets = py_random.sample(range(x.numel()), min(512, x.numel()))
    wrong = sum(bool(kept[i]) != _kept(seed, i, p) for i in offsets)
    return err + wrong / len(offsets)


def bench_dropout(sizes, record, bench, dev="cuda"):
    for n in sizes:
        case = f"dropout-{n.bit_length() - 1}" if n & (n - 1) == 0 else f"dropout-{n}"
        x = torch.randn(n, device=dev)
        out = torch.empty_like(x)
        y = torch.nn.functional.dropout(x, p=P, training=True)
        record(case, "torch dropout", bench(lambda: torch.nn.functional.dropout(x, p=P, training=True)), 8 * n, err=dropout_error(x, y, P))
        triton_dropout(x, out, P, SEED)
        record(case, "triton tutorial 04", bench(lambda: triton_dropout(x, out, P, SEED)), 8 * n, err=dropout_error(x, out, P, SEED))


def layer_norm_bwd_error(got, x, dy, w, b):
    """The largest relative error of (dx, dW, db) against autograd in float64."""
    x64 = x.double().requires_grad_()
    w64 = w.double().requires_grad_()
    b64 = b.double().requires_grad_()
    torch.nn.functional.layer_norm(x64, (x.shape[1],), w64, b64, EPS).backward(dy.double())
    return max(((g.double() - r).norm() / r.norm()).item() for g, r in zip(got, (x64.grad, w64.grad, b64.grad)))


def bench_layer_norm_bwd(shapes, record, bench, dev="cuda"):
    for m, n in shapes:
        case = f"layernorm-bwd-{m}x{n}"
        x, dy = torch.randn(m, n, device=dev), torch.randn(m, n, device=dev)
        w, b = torch.randn(n, device=dev), torch.randn(n, device=dev)
        # The forward's mean and rstd ((M, 1) each), as autograd would save them.
        _, mean, rstd = torch.ops.aten.native_layer_norm(x, [n], w, b, EPS)
        bytes_ = 4 * (3 * m * n + 3 * n + 2 * m)
        # Only the backward's kernels: aten's layer-norm backward called directly, no autograd graph.
        aten_bwd = lambda: torch.ops.aten.native_layer_norm_backward(dy, x, [n], mean, rstd, w, b, [True, True, True])
        record(case, "torch native_layer_norm_backward", bench(aten_bwd), bytes_, err=layer_norm_bwd_error(aten_bwd(), x, dy, w, b))
        tri = lambda: triton_layer_norm_bwd(dy, x, w, mean.view(-1), rstd.view(-1))
        record(case, "triton tutorial 05", bench(tri), bytes_, err=layer_norm_bwd_error(tri(), x, dy, w, b))
