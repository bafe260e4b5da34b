"""Idioms of thu-ml/SageAttention's Triton kernels (sageattention/triton/attn_qk_int8_per_block.py), in kernels of
ours (the mask added to a tl.dot's scores, as the library's): an optional mask pointer passed as None, a local `mask_block = None` only loaded where the pointer is given, and
the branch on `mask_block.dtype == tl.int1` that Triton never compiles when it stays None; a boolean mask block's
`tl.max(mask_block) == 0` (no key kept: skip the block), which Triton reduces as an unsigned int1 (any), of a 64×64
block (the library's is 128×64; flattened whole, its elements staged would pass --cpu's 16 KiB). Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def masked_rows_kernel(Q, K, Mask, Out, Skipped, n_rows, n_cols, D: tl.constexpr, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    inside = (offs_m[:, None] < n_rows) & (offs_n[None, :] < n_cols)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < n_rows, other=0.0)
    k = tl.load(K + offs_d[:, None] * n_cols + offs_n[None, :], mask=offs_n[None, :] < n_cols, other=0.0)
    x = tl.dot(q, k)
    mask_block = None
    skip = False
    if Mask is not None:
        if Mask.dtype.element_ty == tl.int1:
            mask_block = tl.load(Mask + offs_m[:, None] * n_cols + offs_n[None, :], mask=inside, other=False)
            if tl.max(mask_block) == 0:
                skip = True
        else:
            mask_block = tl.load(Mask + offs_m[:, None] * n_cols + offs_n[None, :], mask=inside, other=-1.0e6)
    if not skip:
        if mask_block is not None:
            if mask_block.dtype == tl.int1:
                x = x + tl.where(mask_block, 0, -1.0e6)
            else:
                x = x + mask_block
        tl.store(Out + offs_m[:, None] * n_cols + offs_n[None, :], x, mask=inside)
    tl.store(Skipped + tl.program_id(0), skip.to(tl.int32))


def run(q, k, mask, block_m):
    out = torch.zeros((q.shape[0], k.shape[1]), device=DEVICE)
    grid = (triton.cdiv(q.shape[0], block_m),)
    skipped = torch.zeros(grid[0], dtype=torch.int32, device=DEVICE)
    masked_rows_kernel[grid](q, k, mask, out, skipped, q.shape[0], k.shape[1], D=16, BLOCK_M=block_m, BLOCK_N=64)
    return out, skipped


q, k = torch.randn((150, 16), device=DEVICE), torch.randn((16, 45), device=DEVICE)
x = q @ k
out, skipped = run(q, k, None, 64)
torch.testing.assert_close(out, x, atol=1e-4, rtol=1e-4)
keep = torch.rand((150, 45), device=DEVICE) > 0.5
keep[64:128] = False  # the second block of rows keeps nothing: tl.max of its mask is False, the block is skipped
out, skipped = run(q, k, keep, 64)
expected = torch.where(keep, x, x - 1.0e6)
expected[64:128] = 0.0
torch.testing.assert_close(out, expected, atol=1e-4, rtol=1e-4)
assert skipped.tolist() == [0, 1, 0], skipped.tolist()
out, skipped = run(q, k, torch.where(keep, 0.0, -1.0e6), 64)
torch.testing.assert_close(out, torch.where(keep, x, x - 1.0e6), atol=1e-4, rtol=1e-4)
print("mask=None: the mask_block.dtype branch left uncompiled; bool mask: tl.max(mask_block) == 0 skips block 1 of 3; "
      "float mask added: match")
