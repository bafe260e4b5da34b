"""InternLM/lmdeploy's Triton kernels as published (test/python/lmdeploy_kit/, lmdeploy/pytorch/kernels/cuda/ at 1263d5cd8,
unchanged but for lmdeploy.* imports naming the kit), through their own entry points, against loops in Kernel Lab's
torch: rms_norm with and without a residual, silu_and_mul and its MoE expert-parallel form, apply_rotary_pos_emb
(rotate-half and complex), multinomial_sampling, fused_moe (its sort kernels, autotuned GEMMs, silu_and_mul and
moe_reduce), fill_kv_cache into a paged cache, flatten_kv_cache back, flash_attn_with_kvcache (paged decode), and the
W8A8 quantizers: per_token_quant_int8, rms_norm_dynamic_quant (with and without a residual).
Sizes off the blocks: 37 rows × 70 features, 13 tokens top-2 of 4 experts, 3 sequences of 5, 1 and 20 new tokens on
3, 17 and 0 cached in blocks of 16. The prefill attention and the W8A8 GEMM are lmdeploy-long-compiles.py."""

import math

import torch
import triton
import triton.language as tl

from lmdeploy_kit.pytorch.kernels.cuda.rms_norm import rms_norm
from lmdeploy_kit.pytorch.kernels.cuda.activation import silu_and_mul, silu_and_mul_moe_ep
from lmdeploy_kit.pytorch.kernels.cuda.apply_rotary_pos_emb import apply_rotary_pos_emb
from lmdeploy_kit.pytorch.kernels.cuda.multinomial_sampling import multinomial_sampling
from lmdeploy_kit.pytorch.kernels.cuda.fused_moe import fused_moe
from lmdeploy_kit.pytorch.kernels.cuda.fill_kv_cache import fill_kv_cache
from lmdeploy_kit.pytorch.kernels.cuda.flatten_kv_cache import flatten_kv_cache
from lmdeploy_kit.pytorch.kernels.cuda.pagedattention import flash_attn_with_kvcache
from lmdeploy_kit.pytorch.kernels.cuda.w8a8_triton_kernels import per_token_quant_int8, rms_norm_dynamic_quant

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def check(name, got, ref, atol=1e-4):
    print(name + ":", "match" if torch.allclose(got, ref, atol=atol) else f"differ by {(got - ref).abs().max().item()}")


# rms_norm: the residual form adds first and returns the sum too.
x = torch.randn((3, 37, 70), device=DEVICE)
w = torch.randn((70,), device=DEVICE)
r = torch.randn((3, 37, 70), device=DEVICE)


def rms_ref(h, w, eps=1e-6):
    return w * (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps))


check("rms_norm", rms_norm(x, w), rms_ref(x, w))
out, out_res = rms_norm(x, w, residual=r)
check("rms_norm (residual)", torch.cat([out, out_res]), torch.cat([rms_ref(x + r, w), x + r]))

# silu_and_mul: gate and up halves of one row; the MoE form only the first mask_m[e] rows of expert e.
gu = torch.randn((37, 140), device=DEVICE)
check("silu_and_mul", silu_and_mul(gu), gu[:, :70] / (1 + torch.exp(-gu[:, :70])) * gu[:, 70:])
gu3 = torch.randn((3, 13, 140), device=DEVICE)
got = silu_and_mul_moe_ep(gu3, torch.tensor([13, 5, 0], device=DEVICE).int())
want = gu3[..., :70] / (1 + torch.exp(-gu3[..., :70])) * gu3[..., 70:]
check("silu_and_mul_moe_ep", torch.cat([got[0], got[1, :5]]), torch.cat([want[0], want[1, :5]]))

# apply_rotary_pos_emb: query and key heads in one launch.
S, HQ, HK, D = 37, 4, 2, 64
q, k = torch.randn((S, HQ, D), device=DEVICE), torch.randn((S, HK, D), device=DEVICE)
freqs = torch.arange(S, device=DEVICE).float()[:, None] / (10000 ** (torch.arange(0, D, 2, device=DEVICE).float() / D))[None, :]
cos, sin = torch.cat([freqs, freqs], -1).cos(), torch.cat([freqs, freqs], -1).sin()


def rotate_half(t):
    return torch.cat([-t[..., D // 2:], t[..., :D // 2]], dim=-1)


qe, ke = apply_rotary_pos_emb(q, k, cos, sin)
check("apply_rotary_pos_emb", torch.cat([qe, ke], 1), torch.cat([q * cos[:, None] + rotate_half(q) * sin[:, None], k * cos[:, None] + rotate_half(k) * sin[:, None]], 1))
c2, s2 = freqs.cos()[:, None], freqs.sin()[:, None]


def rotate_pairs(t):
    even, odd = t[..., 0::2], t[..., 1::2]
    return torch.stack([even * c2 - odd * s2, odd * c2 + even * s2], dim=-1).flatten(-2)


qe, ke = apply_rotary_pos_emb(q, k, freqs.cos(), freqs.sin(), complex_mode=True)
check("apply_rotary_pos_emb (complex)", torch.cat([qe, ke], 1), torch.cat([rotate_pairs(q), rotate_pairs(k)], 1))


# multinomial_sampling: each row's draw is tl.rand(seed, offset), as the kernel draws it (this kernel gives it).
@triton.jit
def draws_kernel(Seeds, Offsets, Out):
    b = tl.program_id(0)
    tl.store(Out + b, tl.rand(tl.load(Seeds + b), tl.load(Offsets + b).to(tl.int32)))


B, N = 5, 300
scores, order = torch.softmax(torch.randn((B, N), device=DEVICE), -1).sort(-1, descending=True)
seeds = torch.randint(0, 2**31 - 1, (B,), device=DEVICE)
offsets = torch.randint(0, 1000, (B,), device=DEVICE)
draws = torch.empty((B,), device=DEVICE)
draws_kernel[(B,)](seeds, offsets, draws)
sampled = multinomial_sampling(scores, seeds, offsets, order)
cum = scores.cumsum(-1)
want = [int(order[b, int((cum[b] < draws[b]).sum().item())].item()) for b in range(B)]
print("multinomial_sampling:", "match" if sampled.tolist() == want else f"differ: {sampled.tolist()} for {want}")

# fused_moe (float16): top-2 of 4 experts, SiLU-gated.
M, E, top_k, H, F = 13, 4, 2, 40, 24
h = torch.randn((M, H), device=DEVICE, dtype=torch.float16)
w1 = torch.randn((E, 2 * F, H), device=DEVICE, dtype=torch.float16) * 0.2
w2 = torch.randn((E, H, F), device=DEVICE, dtype=torch.float16) * 0.2
topk_w, topk_ids = torch.softmax(torch.randn((M, E), device=DEVICE), -1).topk(top_k, -1)
got = fused_moe(h, w1, w2, topk_w.half(), topk_ids, top_k)
want = torch.zeros((M, H), device=DEVICE)
for m in range(M):
    for j in range(top_k):
        e = int(topk_ids[m, j].item())
        a = w1[e].float() @ h[m].float()
        want[m] += topk_w[m, j] * (w2[e].float() @ (a[:F] / (1 + torch.exp(-a[:F])) * a[F:]))
check("fused_moe", got.float(), want, atol=2e-2)

# The paged KV cache: fill_kv_cache writes each sequence's new tokens after its cached ones, in its blocks.
HK, HQ, D, BS, NB = 2, 4, 64, 16, 10
q_lens, cached = [5, 1, 20], [3, 17, 0]
kv_lens = [c + n for c, n in zip(cached, q_lens)]
blocks = [[7, 2], [9, 0], [4, 5]]
block_offsets = torch.tensor(blocks, device=DEVICE).int()
k_cache, v_cache = torch.randn((NB, BS, HK, D), device=DEVICE), torch.randn((NB, BS, HK, D), device=DEVICE)
k_new, v_new = torch.randn((sum(q_lens), HK, D), device=DEVICE), torch.randn((sum(q_lens), HK, D), device=DEVICE)
q_start = [0, 5, 6]
k_want, v_want = k_cache.clone(), v_cache.clone()
for b in range(3):
    for i in range(q_lens[b]):
        pos = cached[b] + i
        k_want[blocks[b][pos // BS], pos % BS] = k_new[q_start[b] + i]
        v_want[blocks[b][pos // BS], pos % BS] = v_new[q_start[b] + i]
fill_kv_cache(k_new, v_new, k_cache, v_cache, torch.tensor(q_start, device=DEVICE).int(), torch.tensor(q_lens, device=DEVICE).int(),
              torch.tensor(kv_lens, device=DEVICE).int(), max(q_lens), block_offsets)
check("fill_kv_cache", torch.cat([k_cache, v_cache]), torch.cat([k_want, v_want]))


def flat(cache):
    return torch.stack([cache[blocks[b][p // BS], p % BS] for b in range(3) for p in range(kv_lens[b])]).transpose(0, 1)


kv_start = [0, kv_lens[0], kv_lens[0] + kv_lens[1]]
k_flat, v_flat = flatten_kv_cache(k_cache, v_cache, torch.tensor(kv_lens, device=DEVICE).int(), block_offsets,
                                  start_loc=torch.tensor(kv_start, device=DEVICE).int(), out_size=sum(kv_lens))
check("flatten_kv_cache", torch.cat([k_flat, v_flat]), torch.cat([flat(k_cache), flat(v_cache)]))

# flash_attn_with_kvcache: one query token a sequence over its paged keys and values, 2 query heads a key head.
scale = 1.0 / math.sqrt(D)
q1 = torch.randn((3, HQ, D), device=DEVICE)
got = flash_attn_with_kvcache(q1, k_cache, v_cache, cache_seqlens=torch.tensor(kv_lens, device=DEVICE).int(), page_table=block_offsets, softmax_scale=scale)
kf, vf = flat(k_cache), flat(v_cache)
want = torch.stack([torch.stack([torch.softmax(kf[hq // 2, kv_start[b]:kv_start[b] + kv_lens[b]] @ q1[b, hq] * scale, -1) @ vf[hq // 2, kv_start[b]:kv_start[b] + kv_lens[b]]
                                 for hq in range(HQ)]) for b in range(3)])
check("flash_attn_with_kvcache (paged decode)", got, want)

# W8A8: int8 rows with a scale each (max |x| / 127, rounded halves away from zero).
xw = torch.randn((37, 70), device=DEVICE)
xq, xs = per_token_quant_int8(xw, 1e-7)
want_s = xw.abs().amax(-1, keepdim=True).clamp_min(1e-7) / 127
check("per_token_quant_int8", torch.cat([xs, xq.float() * xs], 1), torch.cat([want_s, xw], 1), atol=0.6 * want_s.max().item())
normed = rms_ref(xw, w)
yq, ys = rms_norm_dynamic_quant(xw, w, 1e-6)
check("rms_norm_dynamic_quant", torch.cat([ys, yq.float() * ys], 1), torch.cat([normed.abs().amax(-1, keepdim=True) / 127, normed], 1), atol=0.6 * ys.max().item())
rw = torch.randn((37, 70), device=DEVICE)
yq, ys, res_out = rms_norm_dynamic_quant(xw, w, 1e-6, residual=rw)
check("rms_norm_dynamic_quant (residual)", torch.cat([res_out, yq.float() * ys], 1), torch.cat([xw + rw, rms_ref(xw + rw, w)], 1), atol=0.6 * ys.max().item())
