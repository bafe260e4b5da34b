"""ROCm/aiter's Triton kernels as published (test/python/aiter_kit/), with --cpu: the ones lavapipe takes from 10 s to
over a minute to compile the first time (aiter-idioms.py has the quick ones, on the GPU too). RMSNorm fused with an add,
with dynamic and smooth int8 quantization, and on rows past its 16384-wide block (the blocked loops); LayerNorm forward
and backward, fused with an add; fused add + RMSNorm + pad; top-k; MoE align-block-size and sigmoid top-1 routing; RoPE
(NeoX and GPT-J); paged-attention decode (multi-head and grouped); the MHA forward (flash_attn_func, causal and not,
grouped-query); the a16w16 GEMM with an activation; lean attention. References written from each op's definition in
Kernel Lab's torch."""

import random

import torch
import triton
import triton.language as tl

from aiter_kit.ops.triton.attention.lean_atten import persistent_lean_attention
from aiter_kit.ops.triton.attention.mha import flash_attn_func
from aiter_kit.ops.triton.attention.pa_decode import paged_attention_decode
from aiter_kit.ops.triton.gemm.basic.gemm_a16w16 import gemm_a16w16
from aiter_kit.ops.triton.moe.moe_align_block_size import moe_align_block_size_triton
from aiter_kit.ops.triton.moe.moe_routing_sigmoid_top1_fused import routing_sigmoid_top1
from aiter_kit.ops.triton.normalization import norm, rmsnorm
from aiter_kit.ops.triton.normalization.fused_add_rmsnorm_pad import fused_add_rmsnorm_pad
from aiter_kit.ops.triton.rope.rope import RotateStyle, rope_fwd
from aiter_kit.ops.triton.topk import topk
from aiter_kit.ops.triton.utils._triton import arch_info
from aiter_kit.ops.triton.utils.gemm_config_utils import compute_splitk_params

from aiter_refs import EPS, close, quant_ref, report, rms_ref

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


class GfxConfigs:
    """aiter reads some kernels' tuned configs from `configs/{arch}-….json` by Triton's target arch, which is
    'kernel-lab' here: inside this, aiter's arch check answers gfx942 (MI300), whose config files the kit holds."""

    def __enter__(self):
        arch_info._CACHED_ARCH = "gfx942"

    def __exit__(self, *exc):
        arch_info._CACHED_ARCH = triton.runtime.driver.active.get_current_target().arch


# --- Normalization: rows of 300 (a 512-wide block), 37 rows.
x = torch.randn((37, 300), device=DEVICE)
w = torch.randn(300, device=DEVICE)
b = torch.randn(300, device=DEVICE)

res = torch.randn_like(x)
out, res_out = torch.empty_like(x), torch.empty_like(x)
rmsnorm.rmsnorm2d_fwd_with_add(out, x, res, res_out, w, EPS)
report("rmsnorm2d_fwd_with_add", close(res_out, x + res) and close(out, rms_ref(x + res, w)))

q8, ys = torch.empty((37, 300), dtype=torch.int8, device=DEVICE), torch.empty(37, device=DEVICE)
rmsnorm.rmsnorm2d_fwd_with_dynamicquant(q8, x, ys, w, EPS)
want_q, want_s = quant_ref(rms_ref(x, w), torch.int8, 127)
# One int8 step where x·r·w lands within an f32 ulp of an integer (the kernel's rsqrt is WGSL's, 2 ulp).
report("rmsnorm2d_fwd_with_dynamicquant (int8)", close(ys, want_s) and (q8.float() - want_q.float()).abs().max().item() <= 1)

xs = torch.rand(300, device=DEVICE) + 0.5
rmsnorm.rmsnorm2d_fwd_with_smoothquant(q8, x, xs, ys, w, EPS)
want_q, want_s = quant_ref(rms_ref(x, w) * xs, torch.int8, 127)
report("rmsnorm2d_fwd_with_smoothquant (int8)", close(ys, want_s) and (q8.float() - want_q.float()).abs().max().item() <= 1)

dy = torch.randn_like(x)
xg = x.clone().requires_grad_(True)
wg, bg = w.clone().requires_grad_(True), b.clone().requires_grad_(True)
y = norm.layer_norm(xg, wg, bg, 1e-5)
y.backward(dy)
xr = x.clone().requires_grad_(True)
wr, br = w.clone().requires_grad_(True), b.clone().requires_grad_(True)
yr = torch.nn.functional.layer_norm(xr, (300,), wr, br, 1e-5)
yr.backward(dy)
report("layer_norm", close(y, yr))
report("layer_norm (backward)", close(xg.grad, xr.grad, atol=1e-4) and close(wg.grad, wr.grad, atol=1e-3, rtol=1e-4) and close(bg.grad, br.grad, atol=1e-4))

norm.layernorm2d_fwd_with_add(out, x, res, res_out, w, b, 1e-5)
report("layernorm2d_fwd_with_add", close(res_out, x + res) and close(out, torch.nn.functional.layer_norm(x + res, (300,), w, b, 1e-5)))

o, ro = fused_add_rmsnorm_pad(x, w, EPS, res, 128)
report("fused_add_rmsnorm_pad (to a multiple of 128)", o.shape == (37, 384) and close(ro, x + res)
       and close(o[:, :300], rms_ref(x + res, w)) and bool((o[:, 300:] == 0).all()))

# Rows of 17000, past the 16384-wide block of f32 (65536 bytes): the kernels' blocked loops (USE_BLOCKED), a masked
# remainder block, the forward's `row_max = max(row_max, blk_max)` (Python's max, Triton's maximum) and the backward.
xb, wb = torch.randn((3, 17000), device=DEVICE), torch.randn(17000, device=DEVICE)
xg, wg = xb.clone().requires_grad_(True), wb.clone().requires_grad_(True)
y = rmsnorm.rms_norm(xg, wg, EPS)
dyb = torch.randn_like(y)
y.backward(dyb)
r = torch.rsqrt((xb * xb).mean(-1, keepdim=True) + EPS)
gw = dyb * wb
report("rms_norm (17000 columns, blocked)", close(y, rms_ref(xb, wb), atol=1e-4))
report("rms_norm (17000 columns, blocked, backward)", close(xg.grad, r * gw - xb * r ** 3 * (gw * xb).mean(-1, keepdim=True), atol=1e-4)
       and close(wg.grad, (dyb * xb * r).sum(0), atol=1e-3, rtol=1e-4))
qb, ysb = torch.empty((3, 17000), dtype=torch.int8, device=DEVICE), torch.empty(3, device=DEVICE)
rmsnorm.rmsnorm2d_fwd_with_dynamicquant(qb, xb, ysb, wb, EPS)
want_q, want_s = quant_ref(rms_ref(xb, wb), torch.int8, 127)
report("rmsnorm2d_fwd_with_dynamicquant (17000 columns, blocked)", close(ysb, want_s) and (qb.float() - want_q.float()).abs().max().item() <= 1)

# --- Top-k (one stage: rows of 100 in a 128 block) and MoE routing.
t = torch.randn((5, 100), device=DEVICE)
v, i = topk(t, 7)
rv, ri = torch.topk(t, 7)
report("topk", close(v, rv) and bool((i.long() == ri.long()).all()))

t = torch.randn((3, 2000), device=DEVICE)
v, i = topk(t, 5)
rv, ri = torch.topk(t, 5)
report("topk (rows of 2000: two stages)", close(v, rv) and bool((i.long() == ri.long()).all()))

E, BS = 6, 16
ids = torch.randint(0, E, (23, 2), device=DEVICE, dtype=torch.int32)
max_padded = ids.numel() + E * (BS - 1)
# The caller fills the padding (vLLM's convention, aiter's test too): the kernels write only the experts' tokens.
sorted_ids = torch.full((max_padded,), ids.numel(), dtype=torch.int32, device=DEVICE)
expert_ids = torch.empty(triton.cdiv(max_padded, BS), dtype=torch.int32, device=DEVICE)
n_post = torch.empty(1, dtype=torch.int32, device=DEVICE)
moe_align_block_size_triton(ids, E, BS, sorted_ids, expert_ids, n_post)
# Each expert's token slots (flat indices into topk_ids) in order, padded with numel to a multiple of the block size.
flat = ids.flatten().tolist()
want_sorted, want_experts = [], []
for e in range(E):
    slots = [j for j, ex in enumerate(flat) if ex == e]
    padded = triton.cdiv(len(slots), BS) * BS
    want_sorted += slots + [len(flat)] * (padded - len(slots))
    want_experts += [e] * (padded // BS)
n = int(n_post.item())
report("moe_align_block_size_triton", n == len(want_sorted) and sorted_ids[:n].tolist() == want_sorted and expert_ids[: n // BS].tolist() == want_experts)

for m in (48, 37):
    # Logits of a few units: sigmoid doesn't round two experts to the same 1.0 (the kernel takes the argmax after it).
    xr, wr = torch.randn((m, 70), device=DEVICE) * 0.2, torch.randn((70, 16), device=DEVICE) * 0.2
    try:
        with GfxConfigs():
            got_ids, got_w = routing_sigmoid_top1(xr, wr, 1, fused_shared_experts=True)
        logits = xr @ wr
        ok = bool((got_ids[:, 0].long() == logits.argmax(-1).long()).all()) and bool((got_ids[:, 1] == 16).all())
        report(f"routing_sigmoid_top1 (fused shared expert, {m} tokens)", ok and close(got_w[:, 0], torch.sigmoid(logits.max(-1).values)) and bool((got_w[:, 1] == 1).all()))
    except Exception as e:  # noqa: BLE001
        print(f"routing_sigmoid_top1 (fused shared expert, {m} tokens): {str(e).splitlines()[0].split(': ', 1)[-1]}")

# --- RoPE (s, b, h, d), 37 positions: NeoX and GPT-J rotations, frequencies for half the dims (reused) or all.
S, B, H, D = 37, 2, 3, 64
xq = torch.randn((S, B, H, D), device=DEVICE)
for style, reuse in ((RotateStyle.NEOX, True), (RotateStyle.GPTJ, True), (RotateStyle.NEOX, False)):
    f = torch.randn((S, 1, 1, D // 2 if reuse else D), device=DEVICE)
    got = rope_fwd(xq, f, style, reuse, False)
    if reuse:
        f = torch.cat([f, f], -1) if style == RotateStyle.NEOX else f.repeat_interleave(2, -1)
    if style == RotateStyle.NEOX:
        rot = torch.cat([-xq[..., D // 2:], xq[..., : D // 2]], -1)
    else:
        rot = torch.stack([-xq[..., 1::2], xq[..., 0::2]], -1).reshape(xq.shape)
    name = "neox" if style == RotateStyle.NEOX else "gptj"
    report(f"rope_fwd ({name}{', reused freqs' if reuse else ''})", close(got, xq * torch.cos(f) + rot * torch.sin(f)))

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


try:
    gemm_a16w16(A, W, dtype=torch.float32, config=a16w16_config(1), activation="silu")
    print("gemm_a16w16 (silu): ran")
except Exception as e:  # noqa: BLE001
    print("gemm_a16w16 (silu):", str(e).splitlines()[0].split(" - ", 1)[-1])

# --- Paged attention decode: 3 sequences of 37, 5 and 50 tokens in blocks of 16 (a shuffled block table), head dim 64.


def attention_ref(q, k, v, scale):
    """softmax(q kᵀ · scale) v for one query per head; k, v (L, HK, D) shared by H / HK query heads each."""
    g = q.shape[0] // k.shape[1]
    k, v = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
    p = torch.softmax(torch.einsum("hd,lhd->hl", q, k) * scale, -1)
    return torch.einsum("hl,lhd->hd", p, v)


NB, BLK, HD = 12, 16, 64
seq_lens = torch.tensor([37, 5, 50], dtype=torch.int32, device=DEVICE)
order = list(range(NB))
random.Random(1).shuffle(order)
tables = torch.tensor(order, dtype=torch.int32, device=DEVICE).reshape(3, 4)
one = torch.ones(1, device=DEVICE)
for heads, kv_heads in ((4, 4), (8, 2)):
    q = torch.randn((3, heads, HD), device=DEVICE)
    kc, vc = torch.randn((NB, kv_heads, BLK, HD), device=DEVICE), torch.randn((NB, kv_heads, BLK, HD), device=DEVICE)
    o = torch.empty((3, heads, HD), device=DEVICE)
    paged_attention_decode(o, q, kc, vc, seq_lens, tables, HD ** -0.5, 50, tl.float32, one, one)
    ok = True
    for s in range(3):
        L = int(seq_lens[s])
        blocks = tables[s, : triton.cdiv(L, BLK)].long()
        ks = kc[blocks].permute(0, 2, 1, 3).reshape(-1, kv_heads, HD)[:L]
        vs = vc[blocks].permute(0, 2, 1, 3).reshape(-1, kv_heads, HD)[:L]
        ok = ok and close(o[s], attention_ref(q[s], ks, vs, HD ** -0.5), atol=2e-4)
    report(f"paged_attention_decode ({heads} heads on {kv_heads})", ok)


# --- MHA forward (flash_attn_func, aiter's own kernel; 16 × 16 blocks through its config argument): batch 2, 37 queries
# on 45 keys, 4 query heads on 2 key heads, head dim 32 and 40 (padded to 64 by the kernel), causal aligned bottom right.


def mha_ref(q, k, v, causal):
    sq, sk, g = q.shape[1], k.shape[1], q.shape[2] // k.shape[2]
    k, v = k.repeat_interleave(g, dim=2), v.repeat_interleave(g, dim=2)
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) * q.shape[-1] ** -0.5
    if causal:
        i, j = torch.arange(sq, device=DEVICE)[:, None], torch.arange(sk, device=DEVICE)[None, :]
        s = torch.where(j <= i + sk - sq, s, float("-inf"))
    return torch.einsum("bhqk,bkhd->bqhd", torch.softmax(s, -1), v)


mha_config = {"BLOCK_M": 16, "BLOCK_N": 16, "PRELOAD_V": False, "waves_per_eu": 1, "num_warps": 2, "num_ctas": 1, "num_stages": 1}
for d, causal in ((32, False), (40, True)):
    q = torch.randn((2, 37, 4, d), device=DEVICE)
    k, v = torch.randn((2, 45, 2, d), device=DEVICE), torch.randn((2, 45, 2, d), device=DEVICE)
    got = flash_attn_func(q, k, v, causal=causal, config=mha_config)
    report(f"flash_attn_func (head dim {d}{', causal' if causal else ''})", close(got, mha_ref(q, k, v, causal), atol=2e-4))

# The backward through flash_attn_func's autograd Function (aiter's one-kernel backward, `_bwd_preprocess` and
# `bwd_kernel_causal`; its blocks from aiter's gfx942 MHA config): dV = Pᵀ dO, dS = P ∘ (dO Vᵀ − rowsum(dO ∘ O)),
# dQ = dS K · scale, dK = dSᵀ Q · scale, a key head's summed over its query heads.
d = 32
q = torch.randn((1, 37, 4, d), device=DEVICE).requires_grad_(True)
k, v = torch.randn((1, 45, 2, d), device=DEVICE).requires_grad_(True), torch.randn((1, 45, 2, d), device=DEVICE).requires_grad_(True)
got = flash_attn_func(q, k, v, causal=True, config=mha_config)
do = torch.randn_like(got)
with GfxConfigs():
    got.backward(do)
scale = d ** -0.5
qd, kd, vd = q.detach(), k.detach().repeat_interleave(2, dim=2), v.detach().repeat_interleave(2, dim=2)
sc = torch.einsum("bqhd,bkhd->bhqk", qd, kd) * scale
i, j = torch.arange(37, device=DEVICE)[:, None], torch.arange(45, device=DEVICE)[None, :]
p = torch.softmax(torch.where(j <= i + 45 - 37, sc, float("-inf")), -1)
o = torch.einsum("bhqk,bkhd->bqhd", p, vd)
dp = torch.einsum("bqhd,bkhd->bhqk", do, vd)
ds = p * (dp - (do * o).sum(-1).permute(0, 2, 1)[..., None])
dq = torch.einsum("bhqk,bkhd->bqhd", ds, kd) * scale
dk = torch.einsum("bhqk,bqhd->bkhd", ds, qd) * scale
dv = torch.einsum("bhqk,bqhd->bkhd", p, do)
fold = lambda g: g.reshape(1, 45, 2, 2, d).sum(3)  # noqa: E731
report("flash_attn_func (backward, causal, 4 heads on 2)", close(q.grad, dq, atol=2e-4) and close(k.grad, fold(dk), atol=2e-4) and close(v.grad, fold(dv), atol=2e-4))

# --- Lean attention: persistent_lean_attention reads the CU count as arch_info.get_num_sms(), which aiter's arch_info
# doesn't define (utils/device_info.py does): an AttributeError before any kernel, on every device.
try:
    scratch = torch.zeros(1, device=DEVICE)
    persistent_lean_attention(q[0], k[0], v[0], scratch, scratch, scratch, scratch.int(), scratch.int(), 1, 0.1, config={"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 16, "SM_CNT_FACTOR": 1, "XCD_REMAP": False, "num_warps": 4, "waves_per_eu": 1})
    print("persistent_lean_attention: ran")
except AttributeError as e:
    print("persistent_lean_attention: AttributeError:", e)

