"""Idioms of casper-hansen/AutoAWQ's Triton GEMM (awq/modules/triton/gemm.py, vLLM's awq_triton.py), in a kernel of
ours: each int32 word of a block spread over 8 columns by `w = tl.interleave(w, w)` three times, the nibbles taken out
in AWQ's order with shifts from `((tl.arange(0, 2) * 4)[None, :] + tl.arange(0, 4)[:, None]).reshape(8)` broadcast
and reshaped to the block, then scaled by a row of scales broadcast down the block. A block interleaved with itself
is staged once: a 16×32-word block (16×256 out) fits --cpu's 16 KiB, where staging both sides didn't. Sizes off the
block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def unpack_kernel(Words, Scales, Out, n_rows, n_cols, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    offs_y = tl.program_id(1) * BLOCK_Y + tl.arange(0, BLOCK_Y)
    offs_x = tl.program_id(0) * BLOCK_X + tl.arange(0, BLOCK_X)
    w = tl.load(Words + n_cols * offs_y[:, None] + offs_x[None, :], (offs_y[:, None] < n_rows) & (offs_x[None, :] < n_cols))
    w = tl.interleave(w, w)
    w = tl.interleave(w, w)
    w = tl.interleave(w, w)
    order = ((tl.arange(0, 2) * 4)[None, :] + tl.arange(0, 4)[:, None]).reshape(8)
    shifts = tl.broadcast_to((order * 4)[None, :], (BLOCK_Y * BLOCK_X, 8))
    shifts = tl.reshape(shifts, (BLOCK_Y, BLOCK_X * 8))
    nibbles = (w >> shifts) & 0xF
    out_x = tl.program_id(0) * BLOCK_X * 8 + tl.arange(0, BLOCK_X * 8)
    scales = tl.load(Scales + out_x[None, :] + tl.arange(0, 1)[:, None], out_x[None, :] < n_cols * 8)
    scales = tl.broadcast_to(scales, (BLOCK_Y, BLOCK_X * 8))
    tl.store(Out + 8 * n_cols * offs_y[:, None] + out_x[None, :], nibbles * scales,
             (offs_y[:, None] < n_rows) & (out_x[None, :] < n_cols * 8))


REVERSE = [0, 4, 1, 5, 2, 6, 3, 7]
rows, cols = 37, 45  # words; 360 columns out
nib = torch.randint(0, 16, (rows, cols * 8), dtype=torch.int32)
packed = torch.zeros((rows, cols), dtype=torch.int64)
for j in range(8):
    packed = packed + (nib.reshape(rows, cols, 8)[:, :, j].to(torch.int64) << (4 * REVERSE[j]))
packed = torch.where(packed >= 2 ** 31, packed - 2 ** 32, packed).to(torch.int32)
scales = torch.rand(cols * 8) + 0.5
out = torch.empty((rows, cols * 8), device=DEVICE)
unpack_kernel[(triton.cdiv(cols, 32), triton.cdiv(rows, 16))](packed.to(DEVICE), scales.to(DEVICE), out, rows, cols,
                                                               BLOCK_Y=16, BLOCK_X=32)
torch.testing.assert_close(out.cpu(), nib.float() * scales[None, :], atol=1e-6, rtol=1e-6)
print("tl.interleave(w, w) x3, AWQ's nibble order by shifts, scales broadcast: 37x45 words -> 37x360 match")
