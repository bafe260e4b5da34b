"""Idioms of unslothai/unsloth's Triton kernels in bf16 (unsloth/kernels/swiglu.py `_fg_kernel`, rms_layernorm.py
`_rms_layernorm_forward`), in kernels of ours written the way unsloth writes them: the input loaded and widened with
`.to(tl.float32)`, the weight (or gate) loaded as bf16 and left so, the f32 result narrowed with `.to(W_row.dtype)`
("Exact copy from HF") and multiplied by the bf16 weight — a bf16 product, rounded, as Triton's — then stored to a
bf16 pointer; pointers moved by `Y += row_idx * Y_row_stride`, `eps` a float constexpr held by `tl.full((), eps,
tl.float32)`, the row's inverse RMS stored to an f32 buffer. Until bf16 kernel arguments (bench/NOTES.md §76) a
torch.bfloat16 tensor was refused at the launch. References in Python floats (doubles), bf16 rounding where Triton
rounds; outputs start as NaN; sizes off the blocks (hidden 333 of a 512 block, 2 x 19 rows; 1001 elements)."""

import math
import struct

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def bf16(x):
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", (((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16) & 0xFFFFFFFF))[0]


def close(got, want, what, rtol):
    for i, (g, w) in enumerate(zip(got, want)):
        assert abs(g - w) <= 1e-6 + rtol * abs(w), (what, i, g, w)


@triton.jit
def fg_kernel(e, g, h, n_elements, BLOCK_SIZE: tl.constexpr):
    block_idx = tl.program_id(0)
    offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
    g_row = tl.load(g + offsets, mask=mask, other=0)
    f_row = e_row * tl.sigmoid(e_row)
    f_row = f_row.to(g_row.dtype)
    h_row = f_row * g_row
    tl.store(h + offsets, h_row, mask=mask)


@triton.jit
def rms_forward(Y, Y_row_stride: tl.constexpr, X, X_row_stride: tl.constexpr, W, r, n_cols: tl.constexpr,
                eps: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    Y += row_idx * Y_row_stride
    X += row_idx * X_row_stride
    r += row_idx
    X_row = tl.load(X + col_offsets, mask=mask, other=0).to(tl.float32)
    W_row = tl.load(W + col_offsets, mask=mask, other=0)
    row_var = tl.sum(X_row * X_row, axis=0) / n_cols
    eps_f32 = tl.full((), eps, tl.float32)
    inv_var = tl.math.rsqrt(row_var + eps_f32)
    tl.store(r, inv_var)
    normed = X_row * inv_var
    normed = normed.to(W_row.dtype)
    output = normed * W_row
    tl.store(Y + col_offsets, output, mask=mask)


def check():
    torch.manual_seed(0)
    n = 1001
    e = (torch.randn(n) * 2).to(torch.bfloat16)
    g = torch.randn(n).to(torch.bfloat16)
    h = torch.full((n,), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    fg_kernel[(triton.cdiv(n, 256),)](e.to(DEVICE), g.to(DEVICE), h, n, BLOCK_SIZE=256)
    es, gs = e.float().tolist(), g.float().tolist()
    want = [bf16(bf16(x / (1 + math.exp(-x))) * y) for x, y in zip(es, gs)]
    # f32's sigmoid may round f differently from the double's by one bf16 step: 2 steps of slack.
    close(h.float().cpu().tolist(), want, "swiglu h", rtol=2**-7)
    print(f"swiglu forward in bf16: {n} elements match")

    rows, cols = 2 * 19, 333
    X = torch.randn(rows, cols).to(torch.bfloat16)
    W = (torch.randn(cols) * 0.1 + 1).to(torch.bfloat16)
    Y = torch.full((rows, cols), float("nan"), dtype=torch.bfloat16, device=DEVICE)
    r = torch.full((rows,), float("nan"), device=DEVICE)
    rms_forward[(rows,)](Y, Y.stride(0), X.to(DEVICE), X.stride(0), W.to(DEVICE), r, cols, 1e-6, BLOCK_SIZE=512)
    xs, ws = X.float().tolist(), W.float().tolist()
    inv = [1 / math.sqrt(sum(v * v for v in row) / cols + 1e-6) for row in xs]
    close(r.cpu().tolist(), inv, "rms inv_var", rtol=1e-5)
    want = [bf16(bf16(v * iv) * w) for row, iv in zip(xs, inv) for v, w in zip(row, ws)]
    close(sum(Y.float().cpu().tolist(), []), want, "rms Y", rtol=2**-7)
    print(f"rms layernorm forward in bf16: {rows}x{cols} match")


check()
