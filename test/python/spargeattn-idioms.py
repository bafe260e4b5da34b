"""Idioms of thu-ml/SpargeAttn's Triton kernels (spas_sage_attn/utils.py, Triton_SpargeAttn/triton_kernel_example.py),
in kernels of ours. utils.py's `triton_bmm_pool_sim_simmean` sums the whole Gram matrix of a block of rows,
`sum_value = tl.sum(grams)` with `grams = tl.dot(x, tl.trans(x))`, no axis: reduced axis by axis, not flattened and
staged whole (the library's 128×128 f32: 64 KiB, KL2016 on lavapipe and --cpu; here 64×64 with tl.max and tl.min of it
too, 16 KiB flattened: KL2016 on --cpu). And
triton_kernel_example.py's `_attn_fwd_inner` reads its block map (`kbid = tl.load(K_bid_ptr + start_n//BLOCK_N)`) in a
@triton.jit helper the kernel calls: a read past the end there is KL3101 at the helper's line, with the call that
inlined it, not at the call alone. Sizes off the blocks: 50 of 64 rows."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def gram_sums_kernel(X, Out, n_rows, BS: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, BS)
    x = tl.load(X + offs[:, None] * D + tl.arange(0, D)[None, :], mask=offs[:, None] < n_rows, other=0.0)
    grams = tl.dot(x, tl.trans(x))
    tl.store(Out, tl.sum(grams))
    tl.store(Out + 1, tl.max(grams))
    tl.store(Out + 2, tl.min(grams))


x = torch.randn((50, 32), device=DEVICE).to(torch.float16)
out = torch.empty(3, device=DEVICE)
gram_sums_kernel[(1,)](x, out, 50, BS=64, D=32)
g = x.float() @ x.float().T
torch.testing.assert_close(out, torch.stack([g.sum(), torch.maximum(g.max(), torch.tensor(0.0, device=DEVICE)), torch.minimum(g.min(), torch.tensor(0.0, device=DEVICE))]), atol=1e-2, rtol=1e-4)
print("tl.sum, tl.max, tl.min of a 64x64 tl.dot, no axis: match")


@triton.jit
def _block_kept(K_bid_ptr, start_n, BLOCK_N: tl.constexpr):
    kbid = tl.load(K_bid_ptr + start_n // BLOCK_N)
    return kbid


@triton.jit
def kept_blocks_kernel(K_bid, Out, n_keys, BLOCK_N: tl.constexpr):
    kept = 0
    for start_n in range(0, n_keys + BLOCK_N, BLOCK_N):  # one block too many: the last read is past the map
        if _block_kept(K_bid, start_n, BLOCK_N):
            kept += 1
    tl.store(Out, kept)


bid = torch.tensor([1, 0, 1, 1], dtype=torch.int32, device=DEVICE)
kept = torch.zeros(1, dtype=torch.int32, device=DEVICE)
try:
    kept_blocks_kernel[(1,)](bid, kept, 256, BLOCK_N=64)
    print("past the block map: no error")
except Exception as e:  # noqa: BLE001
    print("past the block map:", str(e).splitlines()[0])


# utils.py's `triton_bmm_pool_sim_simmean` (NOTES §81): beside the Gram matrix's tl.dot (tiled layouts), the block's
# column mean `tl.sum(x_fp32, axis=0)` staged the whole block as f32 and each row reduction had an array of its own
# (64 rows D64: 26 624 bytes, KL2016 on --cpu; the library's 128 rows: 48 128, KL2016 on lavapipe too). Now the column
# sum stages one partial per invocation row and the reductions share one array where memory runs short. Masked rows
# load 0 and their norm is taken as 1 (the library's give 0 / 0).
@triton.jit
def pool_sim_kernel(X, Pool, Sim, N, BS: tl.constexpr, D: tl.constexpr):
    nb = tl.program_id(0)
    rows = nb * BS + tl.arange(0, BS)
    x = tl.load(X + rows[:, None] * D + tl.arange(0, D)[None, :], mask=rows[:, None] < N, other=0.0)
    BS_ = BS if (N - nb * BS) >= BS else (N - nb * BS)
    x_fp32 = x.to(tl.float32)
    pool = tl.sum(x_fp32, axis=0) / BS_
    x_norm = tl.sqrt(tl.sum(x_fp32 * x_fp32, axis=1, keep_dims=True))
    x = (x / tl.where(x_norm > 0, x_norm, 1.0)).to(tl.float16)
    grams = tl.dot(x, tl.trans(x))
    cols = tl.arange(0, D)
    tl.store(Pool + nb * D + cols, pool, mask=cols < D)
    tl.store(Sim + nb, tl.sum(grams).to(tl.float32) / (BS_ * BS_))


n, bs, d = 100, 64, 64
x = torch.randn((n, d), device=DEVICE).to(torch.float16)
x[:bs] = x[:1]  # the first block's rows all equal: its mean similarity is 1
pool = torch.full((2, d), float("nan"), device=DEVICE)
sim = torch.full((2,), float("nan"), device=DEVICE)
pool_sim_kernel[(2,)](x, pool, sim, n, BS=bs, D=d)
xf = x.float()
want_pool = torch.stack([xf[:bs].mean(0), xf[bs:].mean(0)])
xn = (xf / (xf * xf).sum(1, keepdim=True).sqrt()).to(torch.float16).float()
want_sim = torch.stack([(xn[:bs] @ xn[:bs].T).mean(), (xn[bs:] @ xn[bs:].T).mean()])
torch.testing.assert_close(pool, want_pool, atol=1e-4, rtol=1e-4)
torch.testing.assert_close(sim, want_sim, atol=2e-3, rtol=1e-3)
print(f"the pooling kernel's column mean, row norms and Gram mean at block {bs}, D{d}: match (similarity {sim[0].item():.3f}, {sim[1].item():.3f})")
