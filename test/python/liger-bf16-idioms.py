"""Idioms of Liger-Kernel's Triton kernels in bf16 (liger_kernel/ops/group_norm.py `_group_norm_backward_kernel`;
fused_moe_kernels.py's dS), in kernels of ours written the way Liger writes them: per (batch, group) program, a loop
over the group's channels summing `dW += tl.sum(UPSTREAM_grad * x_hat)` over blocks of the hidden size, then
`tl.atomic_add(DW_ptr + channel_idx, dW.to(dtype))` into a bf16 tensor (dtype the gradient's); and a masked block
`tl.atomic_add(DS + offs, part, mask=...)` of bf16s from several programs at an odd offset, so every word holds
halves two programs update at once. Until bf16 atomics (a compare-and-swap loop on the word, codegen/bytes.ts
packedAtomicAdd) both were KL2003 "tl.atomic_add works on Ptr<i32>, Ptr<u32> and Ptr<f32> … got Ptr<bf16>".
Values are small integers, so every partial sum is exact in bf16 whatever order the programs add in; the element
before the accumulated ones (a sentinel in the same word) must come back unchanged. Sizes off the blocks."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def group_dw_db_kernel(X_ptr, UP_ptr, DW_ptr, DB_ptr, X_row_stride, X_col_stride, hidden_size, channels_per_group, BLOCK_SIZE: tl.constexpr, dtype: tl.constexpr):
    batch_idx = tl.program_id(0)
    group_idx = tl.program_id(1)
    X_ptr += batch_idx * X_row_stride
    UP_ptr += batch_idx * X_row_stride
    block_range = tl.arange(0, BLOCK_SIZE)
    for channel_idx in range(group_idx * channels_per_group, (group_idx + 1) * channels_per_group):
        dW = 0.0
        dB = 0.0
        for i in tl.range(0, hidden_size, BLOCK_SIZE):
            offs = i + block_range
            mask = offs < hidden_size
            X = tl.load(X_ptr + channel_idx * X_col_stride + offs, mask=mask, other=0.0)
            UP = tl.load(UP_ptr + channel_idx * X_col_stride + offs, mask=mask, other=0.0)
            dW += tl.sum(UP * X)
            dB += tl.sum(UP)
        tl.atomic_add(DW_ptr + 1 + channel_idx, dW.to(dtype))
        tl.atomic_add(DB_ptr + 1 + channel_idx, dB.to(dtype))


@triton.jit
def block_atomic_kernel(P, DS, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    part = tl.load(P + pid * n + offs, mask=offs < n, other=0.0)
    tl.atomic_add(DS + 1 + offs, part, mask=offs < n)


def check():
    torch.manual_seed(0)
    B, C, G, H = 5, 6, 3, 37
    x = torch.randint(-1, 2, (B, C, H)).to(torch.bfloat16)
    up = torch.randint(-1, 2, (B, C, H)).to(torch.bfloat16)
    dw = torch.zeros(C + 1, dtype=torch.bfloat16); dw[0] = 7.0
    db = torch.zeros(C + 1, dtype=torch.bfloat16); db[0] = -3.0
    dw, db = dw.to(DEVICE), db.to(DEVICE)
    group_dw_db_kernel[(B, G)](x.to(DEVICE), up.to(DEVICE), dw, db, C * H, H, H, C // G, BLOCK_SIZE=16, dtype=tl.bfloat16)
    want_dw = [7.0] + (up.float() * x.float()).sum(dim=(0, 2)).tolist()
    want_db = [-3.0] + up.float().sum(dim=(0, 2)).tolist()
    assert dw.float().cpu().tolist() == want_dw, (dw.float().cpu().tolist(), want_dw)
    assert db.float().cpu().tolist() == want_db, (db.float().cpu().tolist(), want_db)
    print(f"group norm dW/dB by tl.atomic_add into bf16: {B} batches x {G} groups of {C // G} channels, hidden {H}: exact")
    progs, n = 7, 45
    parts = torch.randint(-8, 9, (progs, n)).to(torch.bfloat16)
    ds = torch.zeros(n + 1, dtype=torch.bfloat16); ds[0] = 5.0
    ds = ds.to(DEVICE)
    block_atomic_kernel[(progs,)](parts.to(DEVICE), ds, n, BLOCK=64)
    want = [5.0] + parts.float().sum(0).tolist()
    assert ds.float().cpu().tolist() == want, (ds.float().cpu().tolist(), want)
    print(f"masked block tl.atomic_add of bf16s at an odd offset from {progs} programs, {n} elements: exact")


check()
