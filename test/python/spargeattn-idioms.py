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
