"""References for flash-attn-amd-idioms.py and flash-attn-amd-long-compiles.py, written from the attention definition in
Kernel Lab's torch (f32; the scripts compare with a tolerance), not from the library: softmax(q kᵀ·scale + bias) v per
batch and query head, the key heads shared by HQ // HK query heads, and its gradients."""

import torch


def scores(q, k, scale, causal=False, window=(-1, -1), alibi=None, seqlens_k=None):
    """q kᵀ·scale, (B, HQ, SQ, SK): causal and the window aligned to the bottom right (query i sits at key i + SK - SQ,
    as flash-attention's), keys past seqlens_k[b] hidden, ALiBi's -slope·|i + SK - SQ - j| added."""
    B, SQ, HQ, D = q.shape
    SK, HK = k.shape[1], k.shape[2]
    s = torch.einsum("bqhd,bkhd->bhqk", q, k.repeat_interleave(HQ // HK, dim=2)) * scale
    lens = seqlens_k if seqlens_k is not None else torch.full((B,), SK, device=q.device)
    i = torch.arange(SQ, device=q.device)[None, :, None]
    j = torch.arange(SK, device=q.device)[None, None, :]
    diag = i + (lens[:, None, None] - SQ)  # (B, SQ, 1): the key each query sits at
    hide = j >= lens[:, None, None]
    left, right = window
    if causal:
        right = 0
    if left >= 0:
        hide = hide | (j < diag - left)
    if right >= 0:
        hide = hide | (j > diag + right)
    if alibi is not None:
        s = s - alibi.reshape(-1)[None, :, None, None] * (diag - j).abs()[:, None].float()
    return s.masked_fill(hide[:, None], float("-inf"))


def attention(q, k, v, scale, keep=None, dropout_p=0.0, **masks):
    """(out (B, SQ, HQ, D), lse (B, HQ, SQ)); a query that sees no key gets 0 and lse -inf, as flash-attention's.
    Dropout: the probabilities where `keep` (B, HQ, SQ, SK) is false are dropped, the others scaled by 1 / (1 - p)."""
    s = scores(q, k, scale, **masks)
    HQ, HK = q.shape[2], k.shape[2]
    p = torch.softmax(s, dim=-1)
    p = torch.where(torch.isnan(p), torch.zeros_like(p), p)
    if keep is not None:
        p = torch.where(keep, p / (1 - dropout_p), torch.zeros_like(p))
    out = torch.einsum("bhqk,bkhd->bqhd", p, v.repeat_interleave(HQ // HK, dim=2))
    return out, torch.logsumexp(s, dim=-1)


def gradients(q, k, v, do, scale, keep=None, dropout_p=0.0, **masks):
    """dq, dk, dv of sum(out · do), out = Z V with Z = P (or P ∘ keep / (1 - p) with dropout): dZ = dO vᵀ,
    dP = dZ (∘ keep / (1 - p)), dS = P ∘ (dP - rowsum(dO ∘ O)), dq = dS k·scale, dk = dSᵀ q·scale, dv = Zᵀ dO, a key
    head's summed over the query heads that share it."""
    B, SQ, HQ, D = q.shape
    SK, HK = k.shape[1], k.shape[2]
    kk, vv = k.repeat_interleave(HQ // HK, dim=2), v.repeat_interleave(HQ // HK, dim=2)
    p = torch.softmax(scores(q, k, scale, **masks), dim=-1)
    drop = (lambda t: torch.where(keep, t / (1 - dropout_p), torch.zeros_like(t))) if keep is not None else (lambda t: t)
    o = torch.einsum("bhqk,bkhd->bqhd", drop(p), vv)
    dp = drop(torch.einsum("bqhd,bkhd->bhqk", do, vv))
    ds = p * (dp - (do * o).sum(-1).permute(0, 2, 1)[..., None])
    dq = torch.einsum("bhqk,bkhd->bqhd", ds, kk) * scale
    dk = (torch.einsum("bhqk,bqhd->bkhd", ds, q) * scale).reshape(B, SK, HK, HQ // HK, D).sum(3)
    dv = torch.einsum("bhqk,bqhd->bkhd", drop(p), do).reshape(B, SK, HK, HQ // HK, D).sum(3)
    return dq, dk, dv


def check(name, got, want, atol=2e-4):
    print(name + ":", "match" if torch.allclose(got, want, atol=atol, rtol=1e-4) else f"differ by {(got - want).abs().max().item()}")
