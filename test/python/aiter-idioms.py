"""ROCm/aiter's Triton kernels as published (test/python/aiter_kit/, aiter at e4048607, unchanged but for aiter.*
imports naming the kit), through the library's own Python entry points, against references written from each op's
definition in Kernel Lab's torch: RMSNorm (forward, and backward through its autograd Function), SiLU-and-mul, softmax,
per-tensor and per-token int8 / fp8 quantization, the a16w16 GEMM (bias, split-K) and the a8w8 GEMM. The norms' fused
variants, LayerNorm, top-k, MoE align / routing, RoPE, paged attention decode and the MHA forward are
aiter-long-compiles.py (--cpu: lavapipe takes from 10 s to over a minute to compile each the first time)."""

import re

import torch
import triton
import triton.language as tl

from aiter_kit.ops.triton.activation import fused_silu_mul
from aiter_kit.ops.triton.gemm.basic.gemm_a16w16 import gemm_a16w16
from aiter_kit.ops.triton.gemm.basic.gemm_a8w8 import gemm_a8w8
from aiter_kit.ops.triton.normalization import rmsnorm
from aiter_kit.ops.triton.quant import quant
from aiter_kit.ops.triton.softmax import softmax
from aiter_kit.ops.triton.utils.gemm_config_utils import compute_splitk_params

from aiter_refs import EPS, close, quant_ref, report, rms_ref

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


# --- Normalization: rows of 300 (a 512-wide block), 37 rows.
x = torch.randn((37, 300), device=DEVICE)
w = torch.randn(300, device=DEVICE)
b = torch.randn(300, device=DEVICE)

xg = x.clone().requires_grad_(True)
wg = w.clone().requires_grad_(True)
y = rmsnorm.rms_norm(xg, wg, EPS)
dy = torch.randn_like(y)
y.backward(dy)
# RMSNorm's gradients: r = rsqrt(mean(x²) + eps); dx = r·(dy∘w) − x·r³·mean(dy∘w∘x); dw = Σ_rows dy∘x·r.
r = torch.rsqrt((x * x).mean(-1, keepdim=True) + EPS)
gw = dy * w
dx_ref = r * gw - x * r ** 3 * (gw * x).mean(-1, keepdim=True)
dw_ref = (dy * x * r).sum(0)
report("rms_norm", close(y, rms_ref(x, w)))
report("rms_norm (backward)", close(xg.grad, dx_ref, atol=1e-4) and close(wg.grad, dw_ref, atol=1e-3, rtol=1e-4))

# --- Activations, softmax.
a = torch.randn((37, 2 * 150), device=DEVICE)
report("fused_silu_mul", close(fused_silu_mul(a), torch.nn.functional.silu(a[:, :150]) * a[:, 150:]))
report("softmax", close(softmax(x), torch.softmax(x, -1), atol=1e-6))
# --- Quantization: per tensor (static scale, dynamic through tl.atomic_max) and per token, int8 and fp8 e4m3fn.
for dtype, qmax in ((torch.int8, 127), (torch.float8_e4m3fn, 448)):
    kind = "int8" if dtype == torch.int8 else "fp8"
    qx, s = torch.empty((37, 300), dtype=dtype, device=DEVICE), torch.zeros(1, device=DEVICE)
    quant.dynamic_per_tensor_quant_fp8_i8(qx, x, s)
    ok_s = close(s, x.abs().max() / qmax)
    report(f"dynamic_per_tensor_quant_fp8_i8 ({kind})", ok_s and close(qx, (x * (1.0 / s)).to(dtype)))
    scale_in = torch.tensor([0.02], device=DEVICE)
    quant.static_per_tensor_quant_fp8_i8(qx, x * 0.5, scale_in)
    report(f"static_per_tensor_quant_fp8_i8 ({kind})", close(qx, (x * 0.5 * (1.0 / scale_in)).to(dtype)))
    st = torch.empty(37, device=DEVICE)
    quant.dynamic_per_token_quant_fp8_i8(qx, x, st)
    want_q, want_s = quant_ref(x, dtype, qmax)
    report(f"dynamic_per_token_quant_fp8_i8 ({kind})", close(st, want_s) and close(qx, want_q))
# --- GEMMs: M 37, N 45, K 70 with aiter's config dicts (compute_splitk_params fills the split-K sizes, as its own lookup does).
M, N, K = 37, 45, 70
A = torch.randn((M, K), device=DEVICE, dtype=torch.float16)
W = torch.randn((N, K), device=DEVICE, dtype=torch.float16)
bias = torch.randn(N, device=DEVICE, dtype=torch.float16)
prod = A.float() @ W.float().t()


def a16w16_config(ksplit):
    return compute_splitk_params({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 1, "num_warps": 4,
                                  "num_stages": 2, "waves_per_eu": 2, "matrix_instr_nonkdim": 16, "cache_modifier": ".cg",
                                  "NUM_KSPLIT": ksplit, "kpack": 1}, K)


report("gemm_a16w16", close(gemm_a16w16(A, W, dtype=torch.float16, config=a16w16_config(1)), prod, atol=2e-2, rtol=1e-2))
y = gemm_a16w16(A, W, bias=bias, dtype=torch.float32, config=a16w16_config(1))
report("gemm_a16w16 (bias)", close(y, prod + bias.float(), atol=2e-2, rtol=1e-2))
# Split K: the reduce kernel's rows and columns wrap (`% M`, `% N`), so past M or N a program stores another's elements
# again, the same values: a race as Kernel Lab counts one (KL3104). At M, N multiples of its 32 × 32 blocks, none.
A64, W64, b64 = torch.randn((64, K), device=DEVICE, dtype=torch.float16), torch.randn((64, K), device=DEVICE, dtype=torch.float16), torch.randn(64, device=DEVICE, dtype=torch.float16)
y = gemm_a16w16(A64, W64, bias=b64, dtype=torch.float32, config=a16w16_config(2))
report("gemm_a16w16 (split-K 2, bias, 64 x 64)", close(y, A64.float() @ W64.float().t() + b64.float(), atol=2e-2, rtol=1e-2))
try:
    gemm_a16w16(A, W, dtype=torch.float32, config=a16w16_config(2))
    print("gemm_a16w16 (split-K 2, 37 x 45): ran")
except Exception as e:  # noqa: BLE001
    # The programs and the element named vary (whichever race is seen first on the GPU); the code, kernel and tensor don't.
    found = re.search(r"(KL\d+): (\w+): .* both store (\w+)\[", str(e))
    print("gemm_a16w16 (split-K 2, 37 x 45):", " ".join(found.groups()) if found else str(e).splitlines()[0])
A8 = torch.randint(-100, 100, (M, K), dtype=torch.int8, device=DEVICE)
W8 = torch.randint(-100, 100, (N, K), dtype=torch.int8, device=DEVICE)
sa, sw = torch.rand((M, 1), device=DEVICE), torch.rand((1, N), device=DEVICE)
cfg8 = compute_splitk_params({"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 4, "NUM_KSPLIT": 1,
                              "num_warps": 4, "num_stages": 2}, K)
y = gemm_a8w8(A8, W8, sa, sw, dtype=torch.float32, config=cfg8)
report("gemm_a8w8 (int8, per-row and per-column scales)", close(y, (A8.float() @ W8.float().t()) * sa * sw, atol=1e-2))
