"""A Python kernel file in an untrusted folder: Kernel Lab checks its kernel but must not run the
script (running it would execute its Python). If it ran, the panel would get a run."""

import torch

import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


x = torch.rand(1000, device="cuda")
y = torch.rand(1000, device="cuda")
output = torch.empty_like(x)
add_kernel[(triton.cdiv(1000, 256),)](x, y, output, 1000, BLOCK_SIZE=256)
print(torch.max(torch.abs(output - (x + y))))
