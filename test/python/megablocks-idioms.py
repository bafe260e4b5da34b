"""databricks/megablocks' Triton kernels as published (test/python/megablocks_kit/kernels.py, unchanged): the MoE
permutations through their own entry points: gather / padded_gather / padded_scatter with and without weights,
scatter_wgrad, binned_gather / binned_scatter / binned_scatter_wgrad, against loops over the routing in Kernel Lab's
torch. 13 tokens, top-2 of 3 experts, 70 columns (off every BLOCK_X of the autotune configs), bins padded to 8."""

import torch
import triton
import megablocks_kit.kernels as ops

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
tokens, top_k, E, H = 13, 2, 3, 70
x = torch.randn((tokens, H), device=DEVICE)
top_expert = torch.randint(0, E, (tokens * top_k,), device=DEVICE).int()
bin_ids, indices = torch.sort(top_expert)
bin_ids, indices = bin_ids.int(), indices.int()
counts = [int((top_expert == e).sum().item()) for e in range(E)]
bins = torch.tensor(counts, device=DEVICE).cumsum(0).int()
padded = [((c + 7) // 8) * 8 for c in counts]
padded_bins = torch.tensor(padded, device=DEVICE).cumsum(0).int()
w = torch.rand((tokens * top_k,), device=DEVICE)
idx = indices.tolist(); bid = bin_ids.tolist(); bl = bins.tolist(); pbl = padded_bins.tolist()

def row_b(i, padded_):
    start = (bl[bid[i] - 1] if bid[i] > 0 else 0)
    pstart = ((pbl if padded_ else bl)[bid[i] - 1] if bid[i] > 0 else 0)
    return i - start + pstart

def check(name, got, ref):
    print(name + ":", "match" if torch.allclose(got, ref, atol=1e-5) else f"differ by {(got - ref).abs().max().item()}")

for weights in (None, w):
    sc = (lambda i: w[idx[i]].item()) if weights is not None else (lambda i: 1.0)
    tag = " (weights)" if weights is not None else ""
    ref = torch.stack([x[idx[i] // top_k] * sc(i) for i in range(tokens * top_k)])
    check("gather" + tag, ops.gather(x, indices, bin_ids, weights, bins, top_k), ref)
    pref = torch.zeros((pbl[-1], H), device=DEVICE)
    for i in range(tokens * top_k):
        pref[row_b(i, True)] = x[idx[i] // top_k] * sc(i)
    pg = ops.padded_gather(x, indices, bin_ids, weights, bins, padded_bins, top_k)
    check("padded_gather" + tag, pg, pref)
    sref = torch.zeros((tokens, H), device=DEVICE)
    for i in range(tokens * top_k):
        sref[idx[i] // top_k] += pref[row_b(i, True)] * sc(i)
    check("padded_scatter" + tag, ops.padded_scatter(pg, indices, bin_ids, weights, bins, padded_bins, top_k), sref)

grad = torch.randn((tokens, H), device=DEVICE)
wg_ref = torch.tensor([0.0] * (tokens * top_k), device=DEVICE)
g = ops.gather(x, indices, bin_ids, None, bins, top_k)
for i in range(tokens * top_k):
    wg_ref[idx[i]] = (g[i] * grad[idx[i] // top_k]).sum()
check("scatter_wgrad", ops.scatter_wgrad(g, grad, indices, bin_ids, bins, top_k), wg_ref)
cap = 8
bg = ops.binned_gather(x, indices, w, bins, cap, top_k)
bref = torch.zeros((E, cap, H), device=DEVICE)
for i in range(tokens * top_k):
    pos = i - (bl[bid[i] - 1] if bid[i] > 0 else 0)
    if pos < cap:
        bref[bid[i], pos] = x[idx[i] // top_k] * w[idx[i]].item()
check("binned_gather", bg, bref)
bs_ref = torch.zeros((tokens, H), device=DEVICE)
for i in range(tokens * top_k):
    pos = i - (bl[bid[i] - 1] if bid[i] > 0 else 0)
    if pos < cap:
        bs_ref[idx[i] // top_k] += bg[bid[i], pos] * w[idx[i]].item()
check("binned_scatter", ops.binned_scatter(bg, indices, w, bins, top_k), bs_ref)
bw_ref = torch.zeros((tokens * top_k,), device=DEVICE)
for i in range(tokens * top_k):
    pos = i - (bl[bid[i] - 1] if bid[i] > 0 else 0)
    if pos < cap:
        bw_ref[idx[i]] = (bg[bid[i], pos] * grad[idx[i] // top_k]).sum()
check("binned_scatter_wgrad", ops.binned_scatter_wgrad(bg, grad, indices, bins, top_k), bw_ref)
