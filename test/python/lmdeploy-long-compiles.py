"""InternLM/lmdeploy's varlen prefill attention and W8A8 GEMM as published (test/python/lmdeploy_kit/, flashattention.py
`flash_attn_varlen_func`: causal, causal with a sliding window, not causal, and head size 80, its blocks of 64 + 16 the
second checked on the head axis, against softmax(q k^T) v per query in Kernel Lab's torch; w8a8_triton_kernels.py
`matmul_kernel_dynamic_quant` of per_token_quant_int8's rows, with a residual, autotuned over the library's configs).
3 sequences of 5, 1 and 20 new tokens after 3, 17 and 0 earlier ones, 4 query heads on 2 key/value heads. Each of
these kernels takes lavapipe minutes to compile the first time (bench/NOTES.md §95), so the test runs this file with --cpu."""

import math

import torch
import triton

from lmdeploy_kit.pytorch.kernels.cuda.flashattention import flash_attn_varlen_func
from lmdeploy_kit.pytorch.kernels.cuda.w8a8_triton_kernels import matmul_kernel_dynamic_quant, per_token_quant_int8

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def check(name, got, ref, atol=1e-4):
    print(name + ":", "match" if torch.allclose(got, ref, atol=atol) else f"differ by {(got - ref).abs().max().item()}")


HK, HQ, D = 2, 4, 64
q_lens, cached = [5, 1, 20], [3, 17, 0]
kv_lens = [c + n for c, n in zip(cached, q_lens)]
q_start = [0, 5, 6]
kv_start = [0, kv_lens[0], kv_lens[0] + kv_lens[1]]
k_flat, v_flat = torch.randn((HK, sum(kv_lens), D), device=DEVICE), torch.randn((HK, sum(kv_lens), D), device=DEVICE)

# Each sequence's new tokens over its earlier and new keys, causal from its earlier length on; with window_size w a query at position p sees keys p - w to p.
cu_q = torch.tensor([0, 5, 6, 26], device=DEVICE).int()
cu_k = torch.tensor(kv_start + [sum(kv_lens)], device=DEVICE).int()
qp = torch.randn((sum(q_lens), HQ, D), device=DEVICE)


def prefill_ref(q, kf, vf, causal, window=-1):
    rows = []
    for b in range(3):
        for i in range(q_lens[b]):
            pos = cached[b] + i
            hi = pos + 1 if causal else kv_lens[b]
            lo = max(pos - window, 0) if window > 0 else 0
            s0 = kv_start[b]
            rows.append(torch.stack([torch.softmax(kf[hq // 2, s0 + lo:s0 + hi] @ q[q_start[b] + i, hq] / math.sqrt(q.shape[-1]), -1) @ vf[hq // 2, s0 + lo:s0 + hi]
                                     for hq in range(HQ)]))
    return torch.stack(rows)


for name, causal, window in (("causal", True, -1), ("causal, window 8", True, 8), ("not causal", False, -1)):
    got = flash_attn_varlen_func(qp, k_flat, v_flat, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, max_seqlen_q=max(q_lens),
                                 max_seqlen_k=max(kv_lens), causal=causal, window_size=(window, window))
    check(f"flash_attn_varlen_func ({name})", got, prefill_ref(qp, k_flat, v_flat, causal, window))
q80 = torch.randn((sum(q_lens), HQ, 80), device=DEVICE)
k80, v80 = torch.randn((HK, sum(kv_lens), 80), device=DEVICE), torch.randn((HK, sum(kv_lens), 80), device=DEVICE)
got = flash_attn_varlen_func(q80, k80, v80, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, max_seqlen_q=max(q_lens), max_seqlen_k=max(kv_lens), causal=True)
check("flash_attn_varlen_func (causal, head size 80)", got, prefill_ref(q80, k80, v80, True))

# W8A8 GEMM: int8 rows times int8 weight rows, each rescaled by its row's and column's scale, plus a residual.
xq, xs = per_token_quant_int8(torch.randn((37, 70), device=DEVICE), 1e-7)
wq, ws = per_token_quant_int8(torch.randn((24, 70), device=DEVICE), 1e-7)
res = torch.randn((37, 24), device=DEVICE)
got = matmul_kernel_dynamic_quant(xq, wq, xs, ws, residual=res, output_dtype=torch.float32)
check("matmul_kernel_dynamic_quant (residual)", got, (xq.float() @ wq.float().t()) * xs * ws.t() + res, atol=1e-3)
