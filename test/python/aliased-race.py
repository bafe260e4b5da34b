"""One tensor passed as two pointers (Liger passes one tensor as a kernel's input and its output):
two programs storing one element through the two pointers are a race (KL3104), as through one;
a kernel that updates the tensor in place, each program loading through one pointer the elements
it alone stores through the other, is no race and matches."""

import torch

import triton
import triton.language as tl


@triton.jit
def store_through_both(a_ptr, b_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    tl.store(a_ptr + offs, offs.to(tl.float32), mask=(offs < BLOCK) & (pid == 0))
    tl.store(b_ptr + offs, offs.to(tl.float32) + 1.0, mask=(offs < BLOCK) & (pid == 1))


@triton.jit
def store_all(a_ptr, BLOCK: tl.constexpr):
    tl.store(a_ptr + tl.arange(0, BLOCK), tl.program_id(0).to(tl.float32))


@triton.jit
def scale_in_place(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, 2.0 * x + 1.0, mask=mask)


# The same tensor twice, then a view 4 elements in and the tensor: b_ptr[4] is a_ptr[0].
t = torch.zeros(20, device="cuda")
for a, b in ((t, t), (t[4:], t)):
    try:
        store_through_both[(2,)](a, b, BLOCK=16)
        print("no race found")
    except triton.KernelLabError as err:
        print(err)

# Through one pointer, for comparison (--cpu checks a script's launches as a run's).
try:
    store_all[(2,)](t, BLOCK=16)
    print("no race found")
except triton.KernelLabError as err:
    print(err)

x = torch.randn(1000, device="cuda")
expected = 2.0 * x + 1.0
scale_in_place[(triton.cdiv(1000, 128),)](x, x, 1000, BLOCK=128)
torch.testing.assert_close(x, expected)
print("in place through two pointers: no race")
