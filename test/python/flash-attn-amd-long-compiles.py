"""Dao-AILab/flash-attention's Triton backend for AMD (test/python/flash_attn_amd_kit/, as published; see
flash-attn-amd-idioms.py) through its FA2 interface, with --cpu (lavapipe takes about a minute to compile each variant
of attn_fwd the first time, and more than the 120 s launch limit for _fwd_kernel_splitK): fwd not causal, causal with
one key head (multi-query), with a sliding window, with ALiBi; varlen_fwd on two packed sequences; fwd_kvcache
appending 32 new keys per sequence to a cache filled to 19 and 30 of 70 (grouped-query, causal); bwd's dq, dk, dv not
causal and causal with grouped-query heads at head dim 40 (padded to 64); fwd and bwd with dropout 0.25 (philox
through tl.rand); fwd and bwd in float16 and bfloat16. References: flash_attn_amd_ref.py. Sequence
lengths off the blocks; the forward's BLOCK_M = BLOCK_N = 16 through the package's FLASH_ATTENTION_FWD_TRITON_AMD_CONFIG_JSON,
the decode's and the backward's blocks the package's own for a non-AMD arch (64; 32 × 128 and 128 × 64)."""

import os

os.environ["FLASH_ATTENTION_FWD_TRITON_AMD_CONFIG_JSON"] = '{"BLOCK_M": 16, "BLOCK_N": 16, "PRE_LOAD_V": false, "num_stages": 1, "num_warps": 4}'

import torch
import triton
import triton.language as tl

from flash_attn_amd_kit import flash_attn_2 as fa2
from flash_attn_amd_ref import attention, check, gradients

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def inputs(B, SQ, SK, HQ, HK, D):
    return (torch.randn((B, SQ, HQ, D), device=DEVICE), torch.randn((B, SK, HK, D), device=DEVICE), torch.randn((B, SK, HK, D), device=DEVICE))


# fwd: (name, sizes, causal, window, ALiBi slopes per head).
for name, (B, SQ, SK, HQ, HK, D), causal, window, alibi in [
    ("fwd", (1, 37, 45, 2, 2, 32), False, (-1, -1), None),
    ("fwd (causal, multi-query, head dim 64)", (1, 50, 50, 2, 1, 64), True, (-1, -1), None),
    ("fwd (sliding window 10, 3)", (1, 45, 37, 2, 2, 32), False, (10, 3), None),
    ("fwd (ALiBi, causal)", (2, 37, 45, 2, 1, 32), True, (-1, -1), torch.tensor([0.5, 0.125], device=DEVICE)),
]:
    q, k, v = inputs(B, SQ, SK, HQ, HK, D)
    out = torch.full_like(q, float("nan"))
    out, lse, _, _ = fa2.fwd(q, k, v, out, alibi, 0.0, D ** -0.5, causal, window[0], window[1], 0.0, False)
    want_out, want_lse = attention(q, k, v, D ** -0.5, causal=causal, window=window, alibi=alibi)
    check(name, out, want_out)
    check(name + " lse", lse, want_lse)

# varlen_fwd: sequences of 20 and 33 queries on 45 and 29 keys, packed (thd), causal.
lens_q, lens_k, HQ, HK, D = [20, 33], [45, 29], 2, 2, 32
q, k, v = torch.randn((sum(lens_q), HQ, D), device=DEVICE), torch.randn((sum(lens_k), HK, D), device=DEVICE), torch.randn((sum(lens_k), HK, D), device=DEVICE)
cu_q = torch.tensor([0, lens_q[0], sum(lens_q)], dtype=torch.int32, device=DEVICE)
cu_k = torch.tensor([0, lens_k[0], sum(lens_k)], dtype=torch.int32, device=DEVICE)
out = torch.full_like(q, float("nan"))
out, lse, _, _ = fa2.varlen_fwd(q, k, v, out, cu_q, cu_k, None, None, None, None, max(lens_q), max(lens_k), 0.0, D ** -0.5, False, True, -1, -1, 0.0, False)
for b in range(2):
    sq, sk = slice(int(cu_q[b]), int(cu_q[b + 1])), slice(int(cu_k[b]), int(cu_k[b + 1]))
    want_out, want_lse = attention(q[None, sq], k[None, sk], v[None, sk], D ** -0.5, causal=True)
    check(f"varlen_fwd (causal) sequence {b}", out[sq], want_out[0])
    check(f"varlen_fwd (causal) sequence {b} lse", lse[:, sq], want_lse[0])

# fwd_kvcache: 32 new queries, keys and values per sequence on caches filled to 19 and 30 of 70 (the host copies the new
# keys in and advances cache_seqlens; the kernel reads the cache). B·HQ·SQ = 512: the split-K reduce runs one program per
# row (below 512 it runs two, on the two halves of the head dim, and both store the row's LSE; see below).
B, SK, HQ, HK, D, SQ = 2, 70, 8, 2, 32, 32
k_cache, v_cache = torch.randn((B, SK, HK, D), device=DEVICE), torch.randn((B, SK, HK, D), device=DEVICE)
cache_seqlens = torch.tensor([19, 30], dtype=torch.int32, device=DEVICE)
q, k_new, v_new = torch.randn((B, SQ, HQ, D), device=DEVICE), torch.randn((B, SQ, HK, D), device=DEVICE), torch.randn((B, SQ, HK, D), device=DEVICE)
k_want, v_want = k_cache.clone(), v_cache.clone()
for b in range(B):
    n = int(cache_seqlens[b].item())
    k_want[b, n : n + SQ], v_want[b, n : n + SQ] = k_new[b], v_new[b]
out = torch.full((B, SQ, HQ, D), float("nan"), device=DEVICE)
out, lse = fa2.fwd_kvcache(q, k_cache, v_cache, k_new, v_new, cache_seqlens, None, None, None, None, None, None, out, D ** -0.5, True, -1, -1, 0.0, False, 0)
check("fwd_kvcache cache and cache_seqlens", torch.cat([k_cache, v_cache]), torch.cat([k_want, v_want]), atol=0)
print("cache_seqlens:", cache_seqlens.tolist())
want_out, want_lse = attention(q, k_want, v_want, D ** -0.5, causal=True, seqlens_k=cache_seqlens)
check("fwd_kvcache (causal, grouped-query)", out, want_out)
check("fwd_kvcache (causal, grouped-query) lse", lse, want_lse)

# One query per sequence (decode proper): the reduce's two programs per row both store its LSE, the same value: a race
# as Kernel Lab counts one (KL3104), which stops the run.
q1 = torch.randn((B, 1, HQ, D), device=DEVICE)
try:
    fa2.fwd_kvcache(q1, k_cache, v_cache, None, None, cache_seqlens, None, None, None, None, None, None, None, D ** -0.5, True, -1, -1, 0.0, False, 0)
    print("fwd_kvcache (one query): ran")
except Exception as e:
    print("fwd_kvcache (one query):", "KL3104" if "KL3104" in str(e) else str(e)[:200])

# bwd: dq, dk, dv given poisoned with NaN (bwd zeroes them, as published), against the gradients of the definition.
for name, (B, SQ, SK, HQ, HK, D), causal in [
    ("bwd", (1, 37, 45, 2, 2, 32), False),
    ("bwd (causal, grouped-query, head dim 40)", (2, 37, 45, 4, 2, 40), True),
]:
    q, k, v = inputs(B, SQ, SK, HQ, HK, D)
    out, lse, _, _ = fa2.fwd(q, k, v, None, None, 0.0, D ** -0.5, causal, -1, -1, 0.0, False)
    do = torch.randn_like(out)
    nan = lambda t: torch.full_like(t, float("nan"))
    dq, dk, dv, _ = fa2.bwd(do, q, k, v, out, lse, nan(q), nan(k), nan(v), None, 0.0, D ** -0.5, causal, -1, -1, 0.0, False)
    want_dq, want_dk, want_dv = gradients(q, k, v, do, D ** -0.5, causal=causal)
    check(name + " dq", dq, want_dq)
    check(name + " dk", dk, want_dk)
    check(name + " dv", dv, want_dv)

# Dropout (0.25): the forward keeps a probability where tl.rand(philox_seed, offset) > p, the offset counting from
# philox_offset through the (batch, head, query, key) strides of sd_mask, which return_softmax gives back (the kept
# entries positive); the backward draws the same from rng_state. Which are kept comes from a kernel of ours drawing the
# same tl.rand.
@triton.jit
def draw(Keep, seed, offset, p, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Keep + offs, (tl.rand(seed, offset + offs) > p).to(tl.int32), mask=offs < N)


B, SQ, SK, HQ, HK, D, P = 1, 37, 45, 2, 1, 32, 0.25
q, k, v = inputs(B, SQ, SK, HQ, HK, D)
out, lse, sd_mask, rng_state = fa2.fwd(q, k, v, None, None, P, D ** -0.5, True, -1, -1, 0.0, True)
seed, offset = int(rng_state[0].item()), int(rng_state[1].item())
keep = torch.empty((B, HQ, SQ, SK), dtype=torch.int32, device=DEVICE)
draw[(triton.cdiv(keep.numel(), 256),)](keep, seed, offset, P, keep.numel(), BLOCK=256)
keep = keep == 1
want_out, want_lse = attention(q, k, v, D ** -0.5, keep=keep, dropout_p=P, causal=True)
check("fwd (dropout 0.25, causal)", out, want_out)
check("fwd (dropout 0.25, causal) lse", lse, want_lse)
visible = sd_mask != 0
print("sd_mask keeps what tl.rand keeps:", "match" if torch.equal((sd_mask > 0)[visible], keep[visible]) else "differ")
do = torch.randn_like(out)
dq, dk, dv, _ = fa2.bwd(do, q, k, v, out, lse, None, None, None, None, P, D ** -0.5, True, -1, -1, 0.0, False, None, rng_state)
want_dq, want_dk, want_dv = gradients(q, k, v, do, D ** -0.5, keep=keep, dropout_p=P, causal=True)
check("bwd (dropout 0.25, causal) dq", dq, want_dq)
check("bwd (dropout 0.25, causal) dk", dk, want_dk)
check("bwd (dropout 0.25, causal) dv", dv, want_dv)

# float16 and bfloat16 (the dtypes the package is used with): causal, grouped-query, head dim 40, against the f32
# definition on the same (rounded) inputs; tolerances for 16-bit outputs and gradients.
B, SQ, SK, HQ, HK, D = 2, 37, 45, 4, 2, 40
for dtype, name in [(torch.float16, "float16"), (torch.bfloat16, "bfloat16")]:
    q, k, v = (t.to(dtype) for t in inputs(B, SQ, SK, HQ, HK, D))
    out, lse, _, _ = fa2.fwd(q, k, v, None, None, 0.0, D ** -0.5, True, -1, -1, 0.0, False)
    want_out, want_lse = attention(q.float(), k.float(), v.float(), D ** -0.5, causal=True)
    check(f"fwd ({name})", out.float(), want_out, atol=2e-2)
    check(f"fwd ({name}) lse", lse, want_lse, atol=2e-2)
    do = torch.randn_like(out)
    dq, dk, dv, _ = fa2.bwd(do, q, k, v, out, lse, None, None, None, None, 0.0, D ** -0.5, True, -1, -1, 0.0, False)
    want_dq, want_dk, want_dv = gradients(q.float(), k.float(), v.float(), do.float(), D ** -0.5, causal=True)
    for g, got, want in [("dq", dq, want_dq), ("dk", dk, want_dk), ("dv", dv, want_dv)]:
        check(f"bwd ({name}) {g}", got.float(), want, atol=5e-2)
