"""lucidrains/triton-transformer's kernels (https://github.com/lucidrains/triton-transformer at 689abae, MIT License,
Copyright (c) 2021 Phil Wang), as published: written for Triton 1.x, each takes its meta-parameters as `**meta` and
reads `meta['BLOCK_SIZE']`. Triton 2 and later refuse such a kernel, and so does Kernel Lab, with a TypeError that says
what to write (it was "argument meta of type dict can't be passed to a kernel"). Then softmax.py's forward kernel as
that message says, `BLOCK_SIZE: tl.constexpr` (ours), launched as _softmax.forward launches it; rows off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def softmax_kernel_forward(
    output_ptr,
    input_ptr,
    input_row_stride,
    output_row_stride,
    n_cols,
    causal,
    **meta
):
    row_idx = tl.program_id(0)
    BLOCK_SIZE = meta['BLOCK_SIZE']

    row_start_ptr = input_ptr + row_idx * input_row_stride

    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets

    mask = col_offsets < n_cols

    row = tl.load(input_ptrs, mask = mask, other = -float('inf'))

    if causal:
        causal_mask = col_offsets > (row_idx % n_cols)
        row = row + tl.where(causal_mask, -float('inf'), 0.)

    row_minus_max = row - tl.max(row, axis=0)

    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator

    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask = mask)


@triton.jit
def softmax_kernel_forward_v2(
    output_ptr,
    input_ptr,
    input_row_stride,
    output_row_stride,
    n_cols,
    causal,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)

    row_start_ptr = input_ptr + row_idx * input_row_stride

    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets

    mask = col_offsets < n_cols

    row = tl.load(input_ptrs, mask = mask, other = -float('inf'))

    if causal:
        causal_mask = col_offsets > (row_idx % n_cols)
        row = row + tl.where(causal_mask, -float('inf'), 0.)

    row_minus_max = row - tl.max(row, axis=0)

    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator

    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask = mask)


torch.manual_seed(0)
x = torch.randn((37, 50), device=DEVICE)
n_rows, n_cols = x.shape
BLOCK_SIZE = triton.next_power_of_2(n_cols)
y = torch.empty_like(x)
try:
    softmax_kernel_forward[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols, False, num_warps=4, BLOCK_SIZE=BLOCK_SIZE)
    print("**meta: launched")
except TypeError as e:
    print("**meta:", e)

for causal in (False, True):
    softmax_kernel_forward_v2[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols, causal, num_warps=4, BLOCK_SIZE=BLOCK_SIZE)
    keep = torch.arange(n_cols, device=DEVICE)[None, :] <= (torch.arange(n_rows, device=DEVICE) % n_cols)[:, None]
    ref = torch.softmax(torch.where(keep, x, -float("inf")) if causal else x, dim=-1)
    print(f"softmax, causal {causal}:", "match" if torch.allclose(y, ref, atol=1e-6) else f"differ by {(y - ref).abs().max().item()}")
