"""pytorch/FBGEMM's Triton kernels as published (test/python/fbgemm_kit/, fbgemm_gpu at 71d6f8b2, unchanged but for
fbgemm_gpu.* imports naming the kit), through their own entry points, against references written from their
definitions in Kernel Lab's torch: fp8_gemm.py's row-wise, block-wise and group-wise fp8 quantizers (e4m3fn, max 448),
dequantize_fp8_block, scale_fp8_row (and, refused by name, matmul_fp8_row's default TMA path); fbgemm_gpu.triton's MX4
quantize / dequantize in four rounding modes; the jagged tensor ops. The scaled fp8 matmuls, dequantize_fp8_row and
128 × 128 block quantization are fbgemm-long-compiles.py (--cpu: lavapipe takes minutes to compile them)."""

import math
import struct

import torch
import triton

from fbgemm_kit.experimental.gemm.triton_gemm.fp8_gemm import (
    quantize_fp8_row, triton_quantize_fp8_row, quantize_fp8_block, quantize_fp8_group, matmul_fp8_row,
    dequantize_fp8_block, scale_fp8_row,
)

from fbgemm_kit.triton import RoundingMode, dequantize_mx4, quantize_mx4
from fbgemm_kit.triton.jagged.triton_jagged_tensor_ops import (
    batched_dense_vec_jagged_2d_matmul, dense_to_jagged, jagged_dense_elementwise_add_dense_output,
    jagged_dense_elementwise_add_jagged_output, jagged_dense_elementwise_mul_jagged_output, jagged_to_dense,
    triton_jagged_add_jagged, triton_jagged_mul_jagged,
)

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
FP8, MAX_FP8, EPS = torch.float8_e4m3fn, 448.0, 1e-12


def report(name, ok, detail=""):
    print(name + ":", "match" if ok else f"differ {detail}")


def same_fp8(got, ref):
    """fp8 results: the same values, or one fp8 step apart (the kernel's 448 / max is WGSL's division, within 2.5 ulp)."""
    g, r = got.float(), ref.float()
    step = torch.clamp(r.abs(), min=2.0 ** -6) * 0.125
    return bool(((g - r).abs() <= step).all()) and int((g != r).sum()) <= max(2, g.numel() // 1000)


def quant_ref(x, scale):
    """x * scale clamped to ±448, rounded to e4m3fn (torch's conversion, nearest even)."""
    return torch.clamp(x * scale, -MAX_FP8, MAX_FP8).to(FP8)


# Row-wise: each row's max |x| (clamped at EPS, or at scale_ub) → scale 448 / max; the reciprocal is returned.
x = torch.randn((3, 37, 300), device=DEVICE) * 3
q, s = quantize_fp8_row(x)
row_max = x.abs().amax(-1).clamp(min=EPS)
report("quantize_fp8_row", q.shape == x.shape and q.dtype == FP8 and torch.allclose(s, row_max / MAX_FP8, rtol=1e-6)
       and same_fp8(q, quant_ref(x, (MAX_FP8 / row_max)[..., None])))

ub = torch.tensor([5.0], device=DEVICE)
zs = torch.tensor([37, 20, 0], device=DEVICE).int()
q, s = triton_quantize_fp8_row(x, scale_ub=ub, zero_start_index_M=zs)
rows = torch.arange(37, device=DEVICE)[None, :] < zs[:, None]
row_max = torch.where(rows, x.abs().amax(-1), 0.0).clamp(min=EPS, max=5.0)
want = torch.where(rows[..., None], quant_ref(x, (MAX_FP8 / row_max)[..., None]).float(), 0.0).to(FP8)
report("triton_quantize_fp8_row (scale_ub, jagged rows)", torch.allclose(s, row_max / MAX_FP8, rtol=1e-6) and same_fp8(q, want))

# Block-wise: each [block_m, block_k] tile's max; scales [cdiv(M, block_m), cdiv(K, block_k)] (or transposed). Tiles
# of 64 × 64 (lavapipe takes ~20 s to compile each kernel at 128 × 128; fbgemm-long-compiles.py runs those with --cpu).
xb = torch.randn((200, 300), device=DEVICE)
BM = BK = 64
for k_major in (True, False):
    qb, sb = quantize_fp8_block(xb, block_m=BM, block_k=BK, k_major=k_major)
    tile_max = torch.stack([torch.stack([xb[i:i + BM, j:j + BK].abs().max() for j in range(0, 300, BK)]) for i in range(0, 200, BM)])
    tile_max = tile_max.clamp(min=EPS)
    scale_full = (MAX_FP8 / tile_max).repeat_interleave(BM, 0).repeat_interleave(BK, 1)[:200, :300]
    want_s = tile_max / MAX_FP8 if k_major else (tile_max / MAX_FP8).t()
    report(f"quantize_fp8_block (k_major={k_major})", torch.allclose(sb, want_s, rtol=1e-6) and same_fp8(qb, quant_ref(xb, scale_full)))

# Group-wise: groups of group_size along each row (K a multiple of it, as the library asks); with m_sizes, each
# group of rows' scales M-major, one [K // group_size, rows] block after another.
xg = torch.randn((37, 384), device=DEVICE)
group_max = torch.stack([xg[:, j:j + 128].abs().amax(-1) for j in range(0, 384, 128)], 1).clamp(min=EPS)
want_q = quant_ref(xg, (MAX_FP8 / group_max).repeat_interleave(128, 1))
qg, sg = quantize_fp8_group(xg, group_size=128)
report("quantize_fp8_group", torch.allclose(sg, group_max / MAX_FP8, rtol=1e-6) and same_fp8(qg, want_q))
qg, sg = quantize_fp8_group(xg, group_size=128, m_sizes=torch.tensor([10, 0, 27], device=DEVICE).int())
want_s = torch.cat([(group_max[:10] / MAX_FP8).t().flatten(), (group_max[10:] / MAX_FP8).t().flatten()])
report("quantize_fp8_group (m_sizes)", torch.allclose(sg.flatten(), want_s, rtol=1e-6) and same_fp8(qg, want_q))

# Dequantizers: bf16 out (dequantize_fp8_row, whose 16 × 512 fp8 tile lavapipe takes ~40 s to compile, is in
# fbgemm-long-compiles.py).
qb, sb = quantize_fp8_block(xb, block_m=BM, block_k=BK)
d = dequantize_fp8_block(qb, sb, block_m=BM, block_k=BK)
want = (qb.float().bfloat16().float() * sb.repeat_interleave(BM, 0).repeat_interleave(BK, 1)[:200, :300]).bfloat16()
report("dequantize_fp8_block", torch.allclose(d.float(), want.float()))

# scale_fp8_row: a matmul's output scaled by row and column. Its kernel loads BLOCK_SIZE (512) column scales unmasked:
# N a multiple of 512 here; at 70 columns Kernel Lab stops at the load past the end.
c = torch.randn((37, 512), device=DEVICE)
xs, ws = torch.rand((37,), device=DEVICE), torch.rand((512,), device=DEVICE)
report("scale_fp8_row", torch.allclose(scale_fp8_row(c, xs, ws), c * xs[:, None] * ws[None, :], rtol=1e-6))
try:
    scale_fp8_row(torch.randn((37, 70), device=DEVICE), xs, torch.rand((70,), device=DEVICE))
    print("scale_fp8_row (70 columns): no fault")
except triton.OutOfBoundsError as e:
    print("scale_fp8_row (70 columns):", str(e).split(": ", 1)[1].split(";")[0])

# matmul_fp8_row's default (tma_persistent=True) fills CUDA TMA descriptors at raw device addresses through
# triton.runtime.driver.active.utils: refused by name. The other variants and matmul_fp8_block are
# fbgemm-long-compiles.py (--cpu).
try:
    torch.version.cuda = "12.8"  # as in fbgemm-long-compiles.py: the library asserts a CUDA build's fp8 dtypes
    (aq, a_s), (bq, b_s) = quantize_fp8_row(x[0]), quantize_fp8_row(x[1])
    matmul_fp8_row(aq, bq, a_s, b_s)
    print("matmul_fp8_row (tma_persistent): no fault")
except NotImplementedError as e:
    print("matmul_fp8_row (tma_persistent):", str(e).split(" (")[0])
finally:
    torch.version.cuda = None

# MX4 (fbgemm_gpu.triton's quantize_mx4 / dequantize_mx4): groups of 32 along each row (a row padded with zeros to
# whole groups), a shared exponent e per group from its max |x| (ceil(log2 max) by default; floor, nearest, or
# log2 of max's bits + 2^21 - 1 floored for `even`) less 2 (e2m1's largest exponent), clamped to [-127, 125], and each
# element x / 2^e rounded to e2m1 (0, .5, 1, 1.5, 2, 3, 4, 6: nearest, ties away from zero, saturating at 6) as a 4-bit
# sign-and-index code. Packed: 16 bytes of two codes (low nibble first) then the byte e + 127, per group. The reference
# is this definition in Python floats, not the library's quantize_ref.py (whose Tensor.view(dtype) Kernel Lab lacks).
E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def mx4_exp(gmax, mode):
    if gmax == 0:
        gmax = 2.0 ** -126
    if mode == RoundingMode.nearest:
        e = math.floor(math.log2(gmax) + 0.5)
    elif mode == RoundingMode.floor:
        e = math.floor(math.log2(gmax))
    elif mode == RoundingMode.even:
        bits = struct.unpack("<i", struct.pack("<f", gmax))[0] + (1 << 21) - 1
        e = ((bits >> 23) & 0xFF) - 127
    else:
        e = math.ceil(math.log2(gmax))
    return min(max(e - 2, -127), 125)


def mx4_code(v):
    mag = abs(v)
    best = 0
    for i, q in enumerate(E2M1):
        if abs(mag - q) < abs(mag - E2M1[best]) or abs(mag - q) == abs(mag - E2M1[best]):
            best = i  # the later (larger) of two equally near: ties away from zero
    return best | (8 if math.copysign(1.0, v) < 0 else 0)


def mx4_ref(rows, mode):
    """(packed bytes, dequantized floats) of a list of rows of Python floats."""
    packed, values = [], []
    for row in rows:
        row = row + [0.0] * (-len(row) % 32)
        for g in range(0, len(row), 32):
            group = row[g:g + 32]
            e = mx4_exp(max(abs(v) for v in group), mode)
            codes = [mx4_code(v / 2.0 ** e) for v in group]
            packed += [codes[i] | codes[i + 1] << 4 for i in range(0, 32, 2)] + [e + 127]
            values += [(-1 if c & 8 else 1) * E2M1[c & 7] * 2.0 ** e for c in codes]
    return packed, values


xm = torch.randn((70, 100), device=DEVICE) * 5
xm[3, :40] = 0.0  # a group of zeros: exponent -127
rows = xm.tolist()
for mode in (RoundingMode.ceil, RoundingMode.floor, RoundingMode.nearest, RoundingMode.even):
    packed = quantize_mx4(xm, rounding_mode=mode)
    want_packed, want_values = mx4_ref(rows, mode)
    got = dequantize_mx4(packed)
    ok = packed.dtype == torch.uint8 and packed.flatten().tolist() == want_packed and got.flatten().tolist() == want_values
    report(f"quantize_mx4 / dequantize_mx4 ({mode.name})", ok)

# Jagged tensors (fbgemm_gpu.triton.jagged): values [total rows, D] cut into sequences by offsets. Three sequences of
# 5, 0 and 40 rows, D 70, padded to (or cut at) 37 rows; and two levels: 2 and 1 sub-sequences of 3, 0 and 5 rows
# padded to [2, 4].
offsets = torch.tensor([0, 5, 5, 45], device=DEVICE).int()
D, L = 70, 37
values = torch.randn((45, D), device=DEVICE)
dense = torch.randn((3, L, D), device=DEVICE)


def each_row(offs, max_len):
    """(sequence, row in it, row of values) of the rows that fit max_len."""
    return [(b, r, offs[b] + r) for b in range(len(offs) - 1) for r in range(min(offs[b + 1] - offs[b], max_len))]


rows_in = each_row(offsets.tolist(), L)
want = torch.zeros((3, L, D), device=DEVICE)
for b, r, i in rows_in:
    want[b, r] = values[i]
report("jagged_to_dense", torch.equal(jagged_to_dense(values, [offsets], [L]), want))
report("jagged_dense_elementwise_add_dense_output", torch.allclose(jagged_dense_elementwise_add_dense_output(values, [offsets], dense), want + dense))

want = torch.zeros((45, D), device=DEVICE)
for b, r, i in rows_in:
    want[i] = dense[b, r]
got, got_offsets = dense_to_jagged(dense, [offsets])
report("dense_to_jagged", torch.equal(got, want) and got_offsets[0] is offsets)
got, _ = jagged_dense_elementwise_add_jagged_output(values, [offsets], dense)
report("jagged_dense_elementwise_add_jagged_output", torch.allclose(got, values + want))
got, _ = jagged_dense_elementwise_mul_jagged_output(values, [offsets], dense)
report("jagged_dense_elementwise_mul_jagged_output", torch.allclose(got, values * want))

outer = torch.tensor([0, 2, 3], device=DEVICE).int()
inner = torch.tensor([0, 3, 3, 8], device=DEVICE).int()
values2 = torch.randn((8, D), device=DEVICE)
want = torch.zeros((2, 2, 4, D), device=DEVICE)
for b in range(2):
    for s_ in range(outer[b + 1].item() - outer[b].item()):
        seq = outer[b].item() + s_
        for r in range(min(inner[seq + 1].item() - inner[seq].item(), 4)):
            want[b, s_, r] = values2[inner[seq].item() + r]
report("jagged_to_dense (two jagged dims)", torch.equal(jagged_to_dense(values2, [outer, inner], [2, 4]), want))
got, _ = dense_to_jagged(want, [outer, inner])
kept = values2.clone()
kept[7] = 0.0  # the third sub-sequence's fifth row, past the 4 the dense tensor holds
report("dense_to_jagged (two jagged dims)", torch.equal(got, kept))

# batched_dense_vec_jagged_2d_matmul: for sequence b and head h, dense[b * H + h, :len] @ values[rows of b, head h's D].
H, Dh, N = 2, 35, 37
vals = torch.randn((45, H * Dh), device=DEVICE)
vec = torch.randn((3 * H, N), device=DEVICE)
want = torch.zeros((3 * H, Dh), device=DEVICE)
offs = offsets.tolist()
for b in range(3):
    n = min(offs[b + 1] - offs[b], N)
    for h in range(H):
        if n:
            want[b * H + h] = vec[b * H + h, :n] @ vals[offs[b]:offs[b] + n, h * Dh:(h + 1) * Dh]
report("batched_dense_vec_jagged_2d_matmul", torch.allclose(batched_dense_vec_jagged_2d_matmul(vec, vals, offsets), want, atol=1e-4))

x, y = torch.randn((45, D), device=DEVICE), torch.randn((45, D), device=DEVICE)
report("triton_jagged_add_jagged", torch.equal(triton_jagged_add_jagged(x, y), x + y))
report("triton_jagged_mul_jagged", torch.equal(triton_jagged_mul_jagged(x, y), x * y))
