"""Dao-AILab/flash-attention's Triton backend for AMD (flash_attn/flash_attn_triton_amd/ at bbe25bac, the package's last
commit before it moved to aiter; test/python/flash_attn_amd_kit/, unchanged) through its FA2 interface as published, on
the GPU and with --cpu: its arch checks (is_hip, get_arch) take the non-AMD path through Kernel Lab's
driver.active.get_current_target(), and fwd, causal with grouped-query heads at head dim 24 (padded to 32), matches
softmax(q kᵀ·scale) v and its log-sum-exp (flash_attn_amd_ref.py). Sequence lengths 37 and 45 over BLOCK_M = BLOCK_N = 16,
chosen through the package's own FLASH_ATTENTION_FWD_TRITON_AMD_CONFIG_JSON. The rest (more forwards, fwd_kvcache, bwd)
is flash-attn-amd-long-compiles.py: lavapipe takes about a minute to compile each variant of attn_fwd the first time."""

import os

# The forward's block config, as the package lets a caller choose it (its utils.py reads it at import).
os.environ["FLASH_ATTENTION_FWD_TRITON_AMD_CONFIG_JSON"] = '{"BLOCK_M": 16, "BLOCK_N": 16, "PRE_LOAD_V": false, "num_stages": 1, "num_warps": 4}'

import torch
import triton

from flash_attn_amd_kit import flash_attn_2 as fa2
from flash_attn_amd_kit.utils import get_arch, is_hip
from flash_attn_amd_ref import attention, check

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
arch = get_arch()
print(f"is_hip {is_hip()}, arch {arch.name}, cdna {arch.is_cdna}, rdna {arch.is_rdna}, fp8 {arch.supports_fp8}")

B, SQ, SK, HQ, HK, D = 2, 37, 45, 4, 2, 24
q = torch.randn((B, SQ, HQ, D), device=DEVICE)
k = torch.randn((B, SK, HK, D), device=DEVICE)
v = torch.randn((B, SK, HK, D), device=DEVICE)
out = torch.full((B, SQ, HQ, D), float("nan"), device=DEVICE)  # fwd zeroes the out it is given, as published
out, lse, _, _ = fa2.fwd(q, k, v, out, None, 0.0, D ** -0.5, True, -1, -1, 0.0, False)
want_out, want_lse = attention(q, k, v, D ** -0.5, causal=True)
check("fwd (causal, grouped-query, head dim 24)", out, want_out)
check("fwd (causal, grouped-query, head dim 24) lse", lse, want_lse)
