"""torch.compile's FlexAttention forward as inductor prints it, run through each file's call() with a BlockMask built as
torch.nn.attention.flex_attention.create_block_mask builds it (128-wide sparse blocks: per q block the kv blocks that
are partial, needing mask_mod, and those that are full), and checked against softmax(QKᵀ·scale + score_mod)·V and its
log-sum-exp computed in float64 (Python floats) on the same inputs:
- inductor_generated/flex_attention_torch25.py (torch 2.5's form: block pointers, flex_attention_grid): a causal mask
  and a per-head linear bias on q_idx - kv_idx;
- inductor_generated/flex_attention_torch210.py (late 2025: load_checked_2d, FixedGrid): a causal document mask that
  loads two tensors, head dim 24 rounded to 32.
Before: `FLOAT32_PRECISION : tl.constexpr = 'ieee'` was KL1003 "strings aren't supported in kernels"; then K_block_ptr
remade under `if HAS_FULL_BLOCKS:` KL2007; `tl.where(offs_n < KV_LEN, mask_mod_output, float("-inf"))` (or `False`)
KL2003; `DeviceProperties(…, max_threads_per_block=1024, …)` a TypeError; `Q_LEN if CHECK_BLOCK_BOUNDARY else None`
KL1101."""

import math
from operator import mul

import torch

from inductor_generated import flex_attention_torch25, flex_attention_torch210

torch.manual_seed(0)
cuda = "cuda"
Z, H, L, D, SPARSE = 1, 2, 200, 32, 128
scale = 1 / math.sqrt(D)


def score_mod(score, h, q_idx, kv_idx):
    return score + (q_idx - kv_idx) * ((h + 1) * -0.0625)


def causal(q_idx, kv_idx):
    return q_idx >= kv_idx


def block_mask(mask_mod):
    """The BlockMask of `mask_mod` over 128-wide blocks, as create_block_mask makes it: for each q block, the count and
    the indices of the kv blocks it partly sees (kv_num_blocks, kv_indices) and of those it wholly sees (full_kv_*)."""
    n_blocks = -(-L // SPARSE)
    partial, full = [], []
    for qb in range(n_blocks):
        rows = range(qb * SPARSE, min(L, (qb + 1) * SPARSE))
        seen = [[sum(mask_mod(i, j) for i in rows for j in range(kb * SPARSE, min(L, (kb + 1) * SPARSE))), kb] for kb in range(n_blocks)]
        size = [len(rows) * (min(L, (kb + 1) * SPARSE) - kb * SPARSE) for kb in range(n_blocks)]
        partial.append([kb for c, kb in seen if 0 < c < size[kb]])
        full.append([kb for c, kb in seen if c == size[kb]])

    def pad(lists):
        return [lst + [kb for kb in range(n_blocks) if kb not in lst] for lst in lists]

    return [torch.tensor(t, dtype=torch.int32, device=cuda) for t in ([[[len(p) for p in partial]]], [[pad(partial)]], [[[len(f) for f in full]]], [[pad(full)]])]


def reference(q, k, v, mask_mod, score_mod=lambda s, h, i, j: s):
    """softmax(QKᵀ·scale + score_mod)·V and the base-2 log-sum-exp (the kernel scales scores by 1/ln 2 before exp2), in
    float64, where mask_mod allows."""
    Q, K, V = q.tolist()[0], k.tolist()[0], v.tolist()[0]
    scale = 1 / math.sqrt(len(Q[0][0]))
    ref_out = [[None] * L for _ in range(H)]
    ref_lse = [[None] * L for _ in range(H)]
    for h in range(H):
        for i in range(L):
            seen = [j for j in range(L) if mask_mod(i, j)]
            scores = [score_mod(sum(map(mul, Q[h][i], K[h][j])) * scale, h, i, j) for j in seen]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = math.fsum(weights)
            ref_out[h][i] = [sum(w * V[h][j][d] for w, j in zip(weights, seen)) / total for d in range(len(V[h][0]))]
            ref_lse[h][i] = (top + math.log(total)) / math.log(2)
    return torch.tensor([ref_out], device=cuda), torch.tensor([ref_lse], device=cuda)


def compare(name, out, lse, ref_out, ref_lse):
    print(f"{name}: max |out - float64| {(out - ref_out).abs().max().item():.1e}, max |lse - float64| {(lse - ref_lse).abs().max().item():.1e}")
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(lse, ref_lse, atol=1e-5, rtol=1e-5)


kv_num_blocks, kv_indices, full_kv_num_blocks, full_kv_indices = block_mask(causal)
assert kv_num_blocks.tolist() == [[[1, 1]]] and full_kv_num_blocks.tolist() == [[[0, 1]]]

q, k, v = (torch.randn(Z, H, L, D, device=cuda) for _ in range(3))
results = flex_attention_torch25.call([q, k, v, kv_num_blocks, kv_indices, full_kv_num_blocks, full_kv_indices])
out, lse = results[0], results[-2]
assert out.shape == (Z, H, L, D) and lse.shape == (Z, H, L)

ref_out, ref_lse = reference(q, k, v, causal, score_mod)
compare("flex attention forward, torch 2.5 (causal BlockMask, score_mod)", out, lse, ref_out, ref_lse)
print("flex attention forward (torch 2.5) through call(): match")

# Late 2025: a causal mask within documents, whose mask_mod reads each token's document and each document's start.
starts = [0, 50, 150, 170]
document = [max(d for d, s in enumerate(starts) if s <= t) for t in range(L)]


def causal_document(q_idx, kv_idx):
    return q_idx >= kv_idx and kv_idx >= starts[document[q_idx]]


blocks = block_mask(causal_document)
q, k = (torch.randn(Z, L, H, 24, device=cuda).permute(0, 2, 1, 3) for _ in range(2))
v = torch.randn(Z, L, H, D, device=cuda).permute(0, 2, 1, 3)
doc_t, starts_t = torch.tensor(document, dtype=torch.int32, device=cuda), torch.tensor(starts, dtype=torch.int32, device=cuda)
out, lse = flex_attention_torch210.call([q, k, v, *blocks, doc_t, starts_t])
ref_out, ref_lse = reference(q, k, v, causal_document)
compare("flex attention forward, late 2025 (document mask, head dim 24 in 32)", out, lse, ref_out, ref_lse)
print("flex attention forward (late 2025) through call(): match")
