"""pytorch/FBGEMM's fp8 kernels whose first compile takes lavapipe from 20 s to minutes, as published
(test/python/fbgemm_kit/, fbgemm_gpu at 71d6f8b2), with --cpu only as lmdeploy-long-compiles.py: dequantize_fp8_row
(its 16 × 512 tile), quantize_fp8_block / dequantize_fp8_block at 128 × 128, and the row-wise and block-wise scaled
fp8 matmuls through matmul_fp8_row and matmul_fp8_block: tl.dot of two float8_e4m3fn blocks, scaled, bf16 out, against
the f32 product of the same fp8 values, scaled; and fbgemm_gpu.sll's jagged softmax and jagged bmm's, forward and
backward (their Triton path, use_fbgemm_kernel=False; 29 s to compile on lavapipe, where they match too). The rest is
fbgemm-idioms.py."""

import torch
import triton

from fbgemm_kit.sll.triton.triton_jagged_bmm import jagged_dense_bmm, jagged_jagged_bmm
from fbgemm_kit.sll.triton.triton_jagged_softmax import jagged_softmax
from fbgemm_kit.experimental.gemm.triton_gemm.fp8_gemm import (
    dequantize_fp8_block, dequantize_fp8_row, matmul_fp8_block, matmul_fp8_row, quantize_fp8_block, quantize_fp8_row,
)

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
FP8, MAX_FP8, EPS = torch.float8_e4m3fn, 448.0, 1e-12


def report(name, ok, detail=""):
    print(name + ":", "match" if ok else f"differ {detail}")


x = torch.randn((37, 300), device=DEVICE) * 3
# Dequantizers: bf16 out. dequantize_fp8_row loads its BLOCK_M (16) row scales unmasked: rows a multiple of 16 here;
# at 37 rows Kernel Lab stops at the load past the end (below).
q, s = quantize_fp8_row(x[:32])
d = dequantize_fp8_row(q, s)
report("dequantize_fp8_row", d.dtype == torch.bfloat16 and torch.allclose(d.float(), (q.float() * s[:, None]).bfloat16().float()))
q, s = quantize_fp8_row(x)
try:
    dequantize_fp8_row(q, s)
    print("dequantize_fp8_row (37 rows): no fault")
except triton.OutOfBoundsError as e:
    print("dequantize_fp8_row (37 rows):", str(e).split(": ", 1)[1].split(";")[0])

# Block quantization and its dequantizer at 128 × 128 tiles (200 × 300: both edges partial).
xb = torch.randn((200, 300), device=DEVICE)
qb, sb = quantize_fp8_block(xb, block_m=128, block_k=128)
tile_max = torch.stack([torch.stack([xb[i:i + 128, j:j + 128].abs().max() for j in range(0, 300, 128)]) for i in range(0, 200, 128)])
tile_max = tile_max.clamp(min=EPS)
want_q = torch.clamp(xb * (MAX_FP8 / tile_max).repeat_interleave(128, 0).repeat_interleave(128, 1)[:200, :300], -MAX_FP8, MAX_FP8).to(FP8)
g, r = qb.float(), want_q.float()
report("quantize_fp8_block (128 x 128)", torch.allclose(sb, tile_max / MAX_FP8, rtol=1e-6)
       and bool(((g - r).abs() <= torch.clamp(r.abs(), min=2.0 ** -6) * 0.125).all()))
d = dequantize_fp8_block(qb, sb, block_m=128, block_k=128)
want = (qb.float().bfloat16().float() * sb.repeat_interleave(128, 0).repeat_interleave(128, 1)[:200, :300]).bfloat16()
report("dequantize_fp8_block (128 x 128)", torch.allclose(d.float(), want.float()))

M, N, K = 37, 70, 300
a, b = torch.randn((M, K), device=DEVICE), torch.randn((N, K), device=DEVICE)
bias = torch.randn((N,), device=DEVICE)
aq, a_s = quantize_fp8_row(a)
bq, b_s = quantize_fp8_row(b)

# Row-wise scaled matmul: a [M, K] @ b [N, K]^T, times a_scale[:, None] * b_scale[None, :], bf16 out.
exact = aq.float() @ bq.float().t() * a_s[:, None] * b_s[None, :]
# matmul_fp8_row asserts a's dtype by platform: e4m3fn / e5m2 where torch.version.cuda is set, ROCm's fnuz types where
# neither it nor .hip is. Kernel Lab's torch is neither build (both None: README, torch.version), so the script says
# CUDA for these calls; nothing else in the library reads it.
torch.version.cuda = "12.8"
for name, kw in [("tma_persistent=False", dict(tma_persistent=False)),
                 ("fp8_fast_accum=False", dict(tma_persistent=False, fp8_fast_accum=False)),
                 ("imprecise_acc=True", dict(tma_persistent=False, imprecise_acc=True)),
                 ("no_use_persistent=True", dict(no_use_persistent=True)),
                 ("bias", dict(tma_persistent=False, bias=bias))]:
    got = matmul_fp8_row(aq, bq, a_s, b_s, **kw)
    want = exact + bias[None, :] if "bias" in kw else exact
    report(f"matmul_fp8_row ({name})", got.dtype == torch.bfloat16 and got.shape == (M, N)
           and torch.allclose(got.float(), want, rtol=1e-2, atol=1e-2), (got.float() - want).abs().max().item())

torch.version.cuda = None

# Block-wise scaled matmul: a's and b's scales per tile of [scale_block_m, scale_block_k] and [scale_block_n,
# scale_block_k]. Its kernel asserts each BLOCK_* is below its scale block, and its autotune configs go up to 256, the
# default scale block: Kernel Lab checks a kernel's assert (Triton without debug skips it), so at the default the
# first config that fits stops there; scale blocks of 512 here, K 600 (two of them along K). The Triton block
# quantizer at 512 × 512 would be KL2016 (its whole-tile tl.max stages the tile's partials, past 16 KiB), so the
# library's own torch path (use_triton=False) quantizes.
K2 = 600
a2, b2 = torch.randn((M, K2), device=DEVICE), torch.randn((N, K2), device=DEVICE)
ab, ab_s = quantize_fp8_block(a2, 512, 512, use_triton=False)
bb, bb_s = quantize_fp8_block(b2, 512, 512, use_triton=False)
deq_a = ab.float() * ab_s.repeat_interleave(512, 0).repeat_interleave(512, 1)[:M, :K2]
deq_b = bb.float() * bb_s.repeat_interleave(512, 0).repeat_interleave(512, 1)[:N, :K2]
want = deq_a @ deq_b.t()
for fast in (True, False):
    got = matmul_fp8_block(ab, bb, ab_s, bb_s, 512, 512, 512, fp8_fast_accum=fast)
    report(f"matmul_fp8_block (fp8_fast_accum={fast})", got.dtype == torch.bfloat16 and torch.allclose(got.float(), want, rtol=1e-2, atol=2e-2),
           (got.float() - want).abs().max().item())
ab, ab_s = quantize_fp8_block(a2, use_triton=False)
bb, bb_s = quantize_fp8_block(b2, use_triton=False)
try:
    matmul_fp8_block(ab, bb, ab_s, bb_s)
    print("matmul_fp8_block (scale blocks 256): no fault")
except triton.DeviceAssertError as e:
    print("matmul_fp8_block (scale blocks 256):", str(e).split("failed: ", 1)[1].split(" (")[0])

# SLL's jagged softmax: per sequence and head, softmax over its first min(len, max_seq_len) rows (the rest 0),
# forward and backward (its autograd.Function).
offs = [0, 5, 5, 45]
offsets = torch.tensor(offs, device=DEVICE).int()
H, MAXLEN = 3, 37
x = torch.randn((45, H), device=DEVICE, requires_grad=True)
y = jagged_softmax(x, offsets, MAXLEN, use_fbgemm_kernel=False)
g = torch.randn((45, H), device=DEVICE)
y.backward(g)
want_y, want_dx = torch.zeros((45, H), device=DEVICE), torch.zeros((45, H), device=DEVICE)
for b in range(3):
    n = min(offs[b + 1] - offs[b], MAXLEN)
    if n:
        rows = slice(offs[b], offs[b] + n)
        s = torch.softmax(x.detach()[rows], dim=0)
        want_y[rows] = s
        want_dx[rows] = (g[rows] - (g[rows] * s).sum(0, keepdim=True)) * s
report("jagged_softmax", torch.allclose(y.detach(), want_y, atol=1e-6))
report("jagged_softmax (backward)", torch.allclose(x.grad, want_dx, atol=1e-6))

# jagged_dense_bmm: each sequence's first min(len, N) rows @ its dense [K, N2] matrix; jagged_jagged_bmm: per sequence,
# x rows^T @ y rows; both through their autograd.Function (use_fbgemm_kernel=False: the Triton kernels), backward too.
K, N2 = 40, 24
a = torch.randn((45, K), device=DEVICE, requires_grad=True)
bm = torch.randn((3, K, N2), device=DEVICE, requires_grad=True)
c = jagged_dense_bmm(a, bm, offsets, MAXLEN, allow_tf32=False, use_fbgemm_kernel=False)
gc = torch.randn((45, N2), device=DEVICE)
c.backward(gc)
want_c = torch.zeros((45, N2), device=DEVICE)
want_da, want_db = torch.zeros((45, K), device=DEVICE), torch.zeros((3, K, N2), device=DEVICE)
for b in range(3):
    n = min(offs[b + 1] - offs[b], MAXLEN)
    rows = slice(offs[b], offs[b] + n)
    want_c[rows] = a.detach()[rows] @ bm.detach()[b]
    want_da[rows] = gc[rows] @ bm.detach()[b].t()
    want_db[b] = a.detach()[rows].t() @ gc[rows]
report("jagged_dense_bmm", torch.allclose(c.detach(), want_c, atol=1e-4), (c.detach() - want_c).abs().max().item())
report("jagged_dense_bmm (backward)", torch.allclose(a.grad, want_da, atol=1e-4) and torch.allclose(bm.grad, want_db, atol=1e-4))

p = torch.randn((45, K), device=DEVICE, requires_grad=True)
q = torch.randn((45, N2), device=DEVICE, requires_grad=True)
r = jagged_jagged_bmm(p, q, offsets, MAXLEN, allow_tf32=False, use_fbgemm_kernel=False)
want_r = torch.stack([p.detach()[offs[b]:offs[b] + min(offs[b + 1] - offs[b], MAXLEN)].t() @ q.detach()[offs[b]:offs[b] + min(offs[b + 1] - offs[b], MAXLEN)] for b in range(3)])
report("jagged_jagged_bmm", torch.allclose(r.detach(), want_r, atol=1e-4), (r.detach() - want_r).abs().max().item())
