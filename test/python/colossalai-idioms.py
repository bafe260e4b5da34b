"""Idioms of hpcaitech/ColossalAI's Triton kernels (colossalai/kernel/triton/context_attn_unpad.py), in kernels of ours.
`_fwd_context_paged_attention_kernel` loads `k = tl.load(K_block_ptr, …)`, [HEAD_DIM, BLOCK_N], in its key loop, and
after the loop, under the run-time `if cur_head_idx % KV_GROUPS == 0:`, copies the keys to the cache with
`k = tl.load(offsets_k, …)`, [BLOCK_M, HEAD_DIM]: in Triton a name first assigned in a loop's body isn't defined after
the loop, so the second `k` is a new name of its own shape (was KL2076, "assigned f32[16, 32] here but f32[32, 16] on
another path"). Sizes off the blocks: 37 rows of 16-row blocks."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def col_sums_then_copy_kernel(X, Sums, Copy, n_rows, D: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, D)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        rows = start + tl.arange(0, BLOCK)
        k = tl.load(X + cols[:, None] + rows[None, :] * D, mask=rows[None, :] < n_rows, other=0.0)  # [D, BLOCK]
        acc += tl.sum(k, 1)
    tl.store(Sums + pid * D + cols, acc, mask=cols < D)
    if pid % 2 == 0:
        rows = pid * BLOCK + tl.arange(0, BLOCK)
        k = tl.load(X + rows[:, None] * D + cols[None, :], mask=rows[:, None] < n_rows, other=0.0)  # [BLOCK, D]
        tl.store(Copy + rows[:, None] * D + cols[None, :], k * 2, mask=rows[:, None] < n_rows)


x = torch.randn((37, 32), device=DEVICE)
sums = torch.empty((3, 32), device=DEVICE)
copy = torch.zeros((37, 32), device=DEVICE)
col_sums_then_copy_kernel[(3,)](x, sums, copy, 37, D=32, BLOCK=16)
want = torch.zeros((37, 32), device=DEVICE)
want[0:16] = x[0:16] * 2
want[32:37] = x[32:37] * 2
torch.testing.assert_close(sums, x.sum(0)[None, :].expand(3, 32), atol=1e-4, rtol=1e-5)
torch.testing.assert_close(copy, want)
print("a loop's name given another shape after the loop, in a run-time if: match")
