"""torch.compile's FlexAttention forward as inductor prints it (inductor_generated/flex_attention_torch25.py, torch 2.5's
form: the `triton_tem_fused_0` template kernel with forward_inner / forward_block_mn / get_offset_for_next_block,
launched with `torch._inductor.kernel.flex_attention.flex_attention_grid`), run through its call() with a causal
BlockMask built as torch.nn.attention.flex_attention.create_block_mask builds it (128-wide sparse blocks: per q block
the kv blocks that are partial, needing mask_mod, and those that are full), and checked against softmax(QKᵀ·scale +
score_mod)·V and its log-sum-exp computed in float64 (Python floats) on the same inputs.
Before: `FLOAT32_PRECISION : tl.constexpr = 'ieee'` was KL1003 "strings aren't supported in kernels"."""

import math
from operator import mul

import torch

from inductor_generated import flex_attention_torch25

torch.manual_seed(0)
cuda = "cuda"
Z, H, L, D, SPARSE = 1, 2, 200, 32, 128
scale = 1 / math.sqrt(D)


def score_mod(score, h, q_idx, kv_idx):
    return score + (q_idx - kv_idx) * ((h + 1) * -0.0625)


def causal(q_idx, kv_idx):
    return q_idx >= kv_idx


# The BlockMask of `causal` over 128-wide blocks, as create_block_mask makes it: for each q block, the count and the
# indices of the kv blocks it partly sees (kv_num_blocks, kv_indices) and of those it wholly sees (full_kv_*).
n_blocks = -(-L // SPARSE)
partial, full = [], []
for qb in range(n_blocks):
    rows = range(qb * SPARSE, min(L, (qb + 1) * SPARSE))
    seen = [[sum(causal(i, j) for i in rows for j in range(kb * SPARSE, min(L, (kb + 1) * SPARSE))), kb] for kb in range(n_blocks)]
    size = [len(rows) * (min(L, (kb + 1) * SPARSE) - kb * SPARSE) for kb in range(n_blocks)]
    partial.append([kb for c, kb in seen if 0 < c < size[kb]])
    full.append([kb for c, kb in seen if c == size[kb]])


def pad(lists):
    return [lst + [kb for kb in range(n_blocks) if kb not in lst] for lst in lists]


kv_num_blocks = torch.tensor([[[len(p) for p in partial]]], dtype=torch.int32, device=cuda)
kv_indices = torch.tensor([[pad(partial)]], dtype=torch.int32, device=cuda)
full_kv_num_blocks = torch.tensor([[[len(f) for f in full]]], dtype=torch.int32, device=cuda)
full_kv_indices = torch.tensor([[pad(full)]], dtype=torch.int32, device=cuda)
assert kv_num_blocks.tolist() == [[[1, 1]]] and full_kv_num_blocks.tolist() == [[[0, 1]]], (partial, full)

q, k, v = (torch.randn(Z, H, L, D, device=cuda) for _ in range(3))
results = flex_attention_torch25.call([q, k, v, kv_num_blocks, kv_indices, full_kv_num_blocks, full_kv_indices])
out, lse = results[0], results[-2]
assert out.shape == (Z, H, L, D) and lse.shape == (Z, H, L)

# float64 reference: the kernel's LSE is in base 2 (scores scaled by 1/ln 2 before exp2).
Q, K, V, O, LSE = q.tolist()[0], k.tolist()[0], v.tolist()[0], out.tolist()[0], lse.tolist()[0]
ref_out = [[None] * L for _ in range(H)]
ref_lse = [[None] * L for _ in range(H)]
for h in range(H):
    v_columns = list(zip(*V[h]))
    for i in range(L):
        scores = [score_mod(sum(map(mul, Q[h][i], K[h][j])) * scale, h, i, j) for j in range(L) if causal(i, j)]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = math.fsum(weights)
        ref_out[h][i] = [sum(map(mul, weights, column)) / total for column in v_columns]
        ref_lse[h][i] = (top + math.log(total)) / math.log(2)
max_out = max(abs(a - b) for h in range(H) for i in range(L) for a, b in zip(O[h][i], ref_out[h][i]))
max_lse = max(abs(LSE[h][i] - ref_lse[h][i]) for h in range(H) for i in range(L))
print(f"flex attention forward (torch 2.5 template, causal BlockMask, score_mod): max |out - float64| {max_out:.1e}, max |lse - float64| {max_lse:.1e}")
torch.testing.assert_close(out, torch.tensor([ref_out], device=cuda), atol=1e-5, rtol=1e-5)
torch.testing.assert_close(lse, torch.tensor([ref_lse], device=cuda), atol=1e-5, rtol=1e-5)
print("flex attention forward through call(): match")
