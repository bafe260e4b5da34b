"""pytorch/FBGEMM's row-wise and block-wise scaled fp8 matmuls as published (test/python/fbgemm_kit/, fbgemm_gpu at
71d6f8b2), through matmul_fp8_row and matmul_fp8_block: tl.dot of two float8_e4m3fn blocks, scaled, bf16 out, against
the f32 product of the same fp8 values, scaled. With --cpu only: lavapipe takes minutes to compile their autotuned
GEMMs the first time (bench/NOTES.md), as lmdeploy-long-compiles.py. The quantizers, MX4 and jagged ops are
fbgemm-idioms.py."""

import torch
import triton

from fbgemm_kit.experimental.gemm.triton_gemm.fp8_gemm import matmul_fp8_block, matmul_fp8_row, quantize_fp8_block, quantize_fp8_row

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def report(name, ok, detail=""):
    print(name + ":", "match" if ok else f"differ {detail}")


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

