"""microsoft/MInference's block-sparse attention as published (test/python/minference_kit/block_sparse_flash_attention.py,
unchanged): block_sparse_attention(q, k, v, top_k) pools queries and keys per 64-block, keeps each query block's top_k
causal key blocks (torch.einsum, where, topk, sort) and runs _triton_block_sparse_attn_fwd_kernel over them (fp16, exp2
online softmax). Checked against dense causal attention in Kernel Lab's torch restricted to the same blocks."""

import torch
from minference_kit.block_sparse_flash_attention import block_sparse_attention, _build_block_index

DEVICE = "cuda"
torch.manual_seed(0)
B, H, N, D, TOP_K = 1, 2, 150, 32, 2  # 150: off the 64-blocks (padded to 192 by the library)
q = torch.randn(B, H, N, D, device=DEVICE, dtype=torch.float16)
k = torch.randn(B, H, N, D, device=DEVICE, dtype=torch.float16)
v = torch.randn(B, H, N, D, device=DEVICE, dtype=torch.float16)
out = block_sparse_attention(q, k, v, TOP_K)
assert out.shape == (B, H, N, D) and out.dtype == torch.float16

# The reference: the blocks the library picks (its own _build_block_index on the padded inputs), dense attention
# over them with the causal mask, in f32.
pad = 64 - (N & 63)
qp = torch.nn.functional.pad(q, [0, 0, 0, pad, 0, 0, 0, 0])
kp = torch.nn.functional.pad(k, [0, 0, 0, pad, 0, 0, 0, 0])
vp = torch.nn.functional.pad(v, [0, 0, 0, pad, 0, 0, 0, 0])
index = _build_block_index(qp, kp, TOP_K, 64, 64)
M = qp.shape[2]
allowed = torch.zeros(B, H, M, M, dtype=torch.bool, device=DEVICE)
rows = index.tolist()
for b in range(B):
    for h in range(H):
        for m_block, blocks in enumerate(rows[b][h]):
            # The kernel visits the first min((m_block + 1) * 64 // 64, top_k) of the sorted blocks.
            for n_block in blocks[: min(m_block + 1, len(blocks))]:
                allowed[b, h, m_block * 64:(m_block + 1) * 64, n_block * 64:(n_block + 1) * 64] = True
causal = torch.arange(M, device=DEVICE)[:, None] >= torch.arange(M, device=DEVICE)[None, :]
scores = (qp.float() @ kp.float().transpose(-2, -1)) * D ** -0.5
scores = scores.masked_fill(~(allowed & causal), float("-inf"))
ref = (torch.softmax(scores, dim=-1) @ vp.float())[..., :N, :]
diff = (out.float() - ref).abs().max().item()
print("block_sparse_attention:", "match" if diff < 2e-2 else f"differ by {diff}")
print(f"block_sparse_attention max |out - ref|: {diff:.1e}")
