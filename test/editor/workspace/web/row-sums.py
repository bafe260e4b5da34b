"""Row sums of a matrix, scaled (test/python/debug-row-sums.py's kernel): the web suite runs it,
debugs it and runs it again, all on one Pyodide in the Python worker."""

import torch

import triton
import triton.language as tl


@triton.jit
def scaled(x, factor):
    return x * factor


@triton.jit
def row_sums_kernel(x_ptr, out_ptr, n_rows, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        acc += tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    if row % 2 == 0:
        total = scaled(tl.sum(acc, axis=0), scale)
    else:
        total = tl.sum(acc, axis=0)
    tl.store(out_ptr + row, total)


@triton.jit
def never_launched(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 0.0)


def row_sums(x, scale):
    n_rows, n_cols = x.shape
    out = torch.empty(n_rows, device=x.device)
    row_sums_kernel[(n_rows,)](x, out, n_rows, n_cols, scale, BLOCK=16)
    return out


# Quarters, so every partial sum is exact in float32: the test computes what the debugger must show.
x = (torch.arange(5 * 37, dtype=torch.float32, device="cuda") * 0.25).reshape(5, 37)
print("rows:", x.shape[0])
out = row_sums(x, 2.0)
expected = x.sum(dim=1) * torch.tensor([2.0, 1.0, 2.0, 1.0, 2.0], device="cuda")
torch.testing.assert_close(out, expected)
print("row sums match")
