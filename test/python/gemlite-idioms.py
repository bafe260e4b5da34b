"""Idioms of mobiusml/gemlite's package and Triton kernels, in code of ours (test/python/gemlite_kit/): its dtype
table names torch.uint32, uint16, the fnuz fp8 dtypes and float8_e8m0fnu, and tl.float8e4b8 / float8e5b16, at import;
its core.py lists its own configs/ folder (JSON beside the modules) with os.listdir at import; its kernel files call
utils.py's `dequantize` taken with `from .utils import *`; a constexpr mode compared with a number picks whether
`scales` / `zeros` are loaded or None before that call; quant_utils.py's kernels call helpers through module-level
aliases of their own file (one bound in an `if` on the backend); its mxfp4 quantizer counts a mask with tl.sum; its autotune pruners are generators. A GEMV on int4 weights packed 8 to an int32 along K, with
f16 activations, sizes off the block."""

import torch
import triton

import gemlite_kit
from gemlite_kit.kernels import fp4_indices, gemv_int4_kernel, group_scales, grouped_row_scale

DEVICE = triton.runtime.driver.active.get_active_torch_device()

print("dtype table:", gemlite_kit.DTYPE_TO_TORCH[7] == torch.uint32, gemlite_kit.TORCH_DTYPE_TO_TRITON[torch.float8_e5m2fnuz])
print("package data:", gemlite_kit.TAGS, gemlite_kit.CONFIG["GEMV"]["BLOCK_SIZE_N"])

torch.manual_seed(0)
N, K, group_size = 100, 96, 32
BLOCK_N, BLOCK_K = gemlite_kit.CONFIG["GEMV"]["BLOCK_SIZE_N"], gemlite_kit.CONFIG["GEMV"]["BLOCK_SIZE_K"]
W_q = torch.randint(0, 16, (K, N), device=DEVICE, dtype=torch.int32)
packed = torch.zeros((K // 8, N), device=DEVICE, dtype=torch.int32)
for i in range(8):
    packed |= W_q[i::8] << (4 * i)
scales = (torch.rand((K // group_size, N), device=DEVICE) * 0.1).half()
zeros = (torch.rand((K // group_size, N), device=DEVICE) * 8).half()
a = torch.randn(K, device=DEVICE).half()
for mode in (1, 2, 4):
    s = scales.float().repeat_interleave(group_size, 0)
    z = zeros.float().repeat_interleave(group_size, 0)
    W = {1: W_q.float() - z, 2: W_q.float() * s, 4: W_q.float() * s + z}[mode]
    c = torch.zeros(N, device=DEVICE)
    gemv_int4_kernel[(triton.cdiv(N, BLOCK_N), triton.cdiv(K, BLOCK_K))](a, packed, c, scales, zeros, N, K, group_size, mode, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    torch.testing.assert_close(c, a.float() @ W, atol=2e-2, rtol=2e-3)
    print(f"W_group_mode {mode}: match")

x = torch.randn((37, 96), device=DEVICE).half() * 3
v = x.float().abs().reshape(37, 3, 32).amax(dim=2) / 6.0
torch.testing.assert_close(group_scales(x), torch.exp2(torch.ceil(torch.log2(v))), atol=0, rtol=0)
print("a helper called through module-level aliases of the kernel's file: match")

thr = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0], device=DEVICE)
idx = (x.float().abs()[:, :, None] > thr).to(torch.int32).sum(dim=2).to(torch.int32)
idx = torch.where(x.float() >= 0, idx, idx + 8)
torch.testing.assert_close(fp4_indices(x, thr).to(torch.int32), (idx[:, 0::2] | (idx[:, 1::2] << 4)) & 255, atol=0, rtol=0)
print("tl.sum of a mask, packed in pairs: match")

w = torch.randn((96, 100), device=DEVICE)
s = torch.rand((3, 100), device=DEVICE)
torch.testing.assert_close(grouped_row_scale(w, s, 32), w * s.repeat_interleave(32, 0), atol=0, rtol=0)
print("an early_config_prune that yields its configs: match")
