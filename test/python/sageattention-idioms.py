"""Idioms of thu-ml/SageAttention's Triton kernels (sageattention/triton/attn_qk_int8_per_block.py), in kernels of
ours: an optional mask pointer passed as None, a local `mask_block = None` only loaded where the pointer is given, and
the branch on `mask_block.dtype == tl.int1` that Triton never compiles when it stays None; a boolean mask block's
`tl.max(mask_block) == 0` (no key kept: skip the block), which Triton reduces as an unsigned int1 (any). Sizes off
the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def masked_rows_kernel(X, Mask, Out, Skipped, n_rows, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    inside = (offs_m[:, None] < n_rows) & (offs_n[None, :] < n_cols)
    x = tl.load(X + offs_m[:, None] * n_cols + offs_n[None, :], mask=inside, other=0.0)
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


def run(x, mask, block_m):
    out = torch.zeros_like(x)
    grid = (triton.cdiv(x.shape[0], block_m),)
    skipped = torch.zeros(grid[0], dtype=torch.int32, device=DEVICE)
    masked_rows_kernel[grid](x, mask, out, skipped, x.shape[0], x.shape[1], BLOCK_M=block_m, BLOCK_N=64)
    return out, skipped


x = torch.randn((37, 45), device=DEVICE)
out, skipped = run(x, None, 16)
torch.testing.assert_close(out, x, atol=0, rtol=0)
keep = torch.rand((37, 45), device=DEVICE) > 0.5
keep[16:32] = False  # the second block of rows keeps nothing: tl.max of its mask is False, the block is skipped
out, skipped = run(x, keep, 16)
expected = torch.where(keep, x, x - 1.0e6)
expected[16:32] = 0.0
torch.testing.assert_close(out, expected, atol=1e-6, rtol=1e-6)
assert skipped.tolist() == [0, 1, 0], skipped.tolist()
out, skipped = run(x, torch.where(keep, 0.0, -1.0e6), 16)
torch.testing.assert_close(out, torch.where(keep, x, x - 1.0e6), atol=1e-6, rtol=1e-6)
print("mask=None: the mask_block.dtype branch left uncompiled; bool mask: tl.max(mask_block) == 0 skips block 1 of 3; "
      "float mask added: match")
