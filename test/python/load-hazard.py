"""A program loading an element another program of the same launch stores (KL3105, a warning): an
in-place shifted add, x[i] = x[i - 1] + 1 over blocks of 64, where program p's lane 0 loads the
element program p - 1's lane 63 stores; launched three times in a loop, warned of once. An
elementwise relu in place (each program loads only what it stores) is not warned of."""

import torch

import triton
import triton.language as tl


@triton.jit
def shift_add(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    prev = tl.load(x_ptr + offs - 1, mask=(offs >= 1) & (offs < n), other=0.0)
    tl.store(x_ptr + offs, prev + 1.0, mask=offs < n)


@triton.jit
def relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


n = 100
x = torch.zeros(n, device="cuda")
for _ in range(3):
    shift_add[(triton.cdiv(n, 64),)](x, n, BLOCK=64)
print("shifted add ran")

y = torch.randn(1000, device="cuda")
expected = torch.relu(y)
grid = (triton.cdiv(1000, 128),)
relu[grid](y, y, 1000, BLOCK=128)
torch.testing.assert_close(y, expected)
print("relu in place: no warning")
