"""One storage passed as two pointers (the same tensor twice, or two views of it) is one memory, as
on CUDA: a program storing through one pointer and then loading the element through the other
reads what it stored, atomics through the two add up, views at an offset (x[k:] and x, two column
halves, int8 elements) and a tensor descriptor with a pointer see each other's stores, and an
in-place kernel works. Each line printed is checked against the value Triton gives; an access
past a view's own elements is out of bounds even inside the storage."""

import torch

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def write_then_read(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(a_ptr + offs, offs.to(tl.float32), mask=mask)
    tl.debug_barrier()
    tl.store(out_ptr + offs, tl.load(b_ptr + offs, mask=mask), mask=mask)


@triton.jit
def add_through_both(a_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.atomic_add(a_ptr + offs, 1.0, mask=mask)
    tl.atomic_add(b_ptr + offs, 2.0, mask=mask)


@triton.jit
def store_then_next(a_ptr, b_ptr, out_ptr, n, shift, BLOCK: tl.constexpr):
    # a is x[shift:] and b is x: b[i + shift] is a[i].
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(a_ptr + offs, 10.0 * offs.to(tl.float32), mask=mask)
    tl.debug_barrier()
    tl.store(out_ptr + offs, tl.load(b_ptr + offs + shift, mask=mask), mask=mask)


@triton.jit
def right_then_whole(right_ptr, whole_ptr, out_ptr, stride, HALF: tl.constexpr):
    # One program per row: store the row's right half through its view, read it back through the whole row.
    row = tl.program_id(0)
    cols = tl.arange(0, HALF)
    mask = cols < stride
    tl.store(right_ptr + row * stride + cols, (row * 100 + cols).to(tl.float32), mask=mask)
    tl.debug_barrier()
    tl.store(out_ptr + row * HALF + cols, tl.load(whole_ptr + row * stride + HALF + cols, mask=mask), mask=mask)


@triton.jit
def relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


@triton.jit
def double(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def bytes_then_next(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # int8 elements, 4 to a word on the GPU: a is x[1:] and b is x.
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(a_ptr + offs, (offs % 100).to(tl.int8), mask=mask)
    tl.debug_barrier()
    tl.store(out_ptr + offs, tl.load(b_ptr + offs + 1, mask=mask).to(tl.int32), mask=mask)


@triton.jit
def descriptor_then_pointer(d, x_ptr, out_ptr, BLOCK: tl.constexpr):
    # A TensorDescriptor of x and a pointer to x: a store through the one, a load through the other.
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    d.store([0, 0], (rows * 100 + cols).to(tl.float32))
    tl.debug_barrier()
    tl.store(out_ptr + rows * BLOCK + cols, tl.load(x_ptr + rows * BLOCK + cols))


@triton.jit
def before_view(a_ptr, b_ptr, BLOCK: tl.constexpr):
    # b is x[4:]: b - 4 + i is x[i], inside the storage but before b's own elements.
    offs = tl.arange(0, BLOCK)
    tl.store(a_ptr + offs, tl.load(b_ptr - 4 + offs, mask=offs < BLOCK), mask=offs < BLOCK)


def check(name, got, expected):
    try:
        torch.testing.assert_close(got, expected)
        print(name, "ok")
    except AssertionError:
        print(name, "WRONG")


n = 1000
grid = (triton.cdiv(n, 128),)

# The same tensor twice, kept on the GPU by an earlier launch (its storage resident).
t = torch.randn(n, device="cuda")
double[grid](t, n, BLOCK=128)
out = torch.full((n,), -7.0, device="cuda")
write_then_read[grid](t, t, out, n, BLOCK=128)
check("write then read", out, torch.arange(n, device="cuda").float())
check("write then read, the tensor", t, torch.arange(n, device="cuda").float())

# Atomics through both pointers: every program adds 1 through one and 2 through the other.
acc = torch.zeros(100, device="cuda")
add_through_both[(4,)](acc, acc, 100, BLOCK=128)
check("atomics through both", acc, torch.full((100,), 12.0, device="cuda"))

# A view one element in and the tensor (a's offset in the storage is 1, b's 0).
x = torch.full((n + 1,), -1.0, device="cuda")
shifted = torch.full((n,), -7.0, device="cuda")
store_then_next[grid](x[1:], x, shifted, n, 1, BLOCK=128)
check("x[1:] and x", shifted, 10.0 * torch.arange(n, device="cuda").float())

# Views further in: their offset is a scalar of the launch, one compile for them all, each launch its own.
for k in (2, 16, 17, 3):
    x = torch.full((n + k,), -1.0, device="cuda")
    shifted = torch.full((n,), -7.0, device="cuda")
    store_then_next[grid](x[k:], x, shifted, n, k, BLOCK=128)
    check(f"x[{k}:] and x", shifted, 10.0 * torch.arange(n, device="cuda").float())

# Two column halves of one matrix: the right half's view and the whole matrix.
m = torch.zeros(6, 64, device="cuda")
halves = torch.full((6, 32), -7.0, device="cuda")
right_then_whole[(6,)](m[:, 32:], m, halves, m.stride(0), HALF=32)
expected = (100 * torch.arange(6, device="cuda")[:, None] + torch.arange(32, device="cuda")[None, :]).float()
check("column halves", halves, expected)
check("column halves, the matrix", m[:, 32:], expected)

# Bytes, and a tensor descriptor with a pointer to the same tensor.
bx = torch.zeros(65, dtype=torch.int8, device="cuda")
bout = torch.full((64,), -7, dtype=torch.int32, device="cuda")
bytes_then_next[(1,)](bx[1:], bx, bout, 64, BLOCK=64)
check("int8 x[1:] and x", bout, torch.arange(64, device="cuda", dtype=torch.int32) % 100)
dz = torch.zeros(16, 16, device="cuda")
dout = torch.full((16, 16), -7.0, device="cuda")
descriptor_then_pointer[(1,)](TensorDescriptor.from_tensor(dz, [16, 16]), dz, dout, BLOCK=16)
check("descriptor and pointer", dout, (100 * torch.arange(16, device="cuda")[:, None] + torch.arange(16, device="cuda")[None, :]).float())

# In place through two pointers.
y = torch.randn(n, device="cuda")
expected = torch.relu(y)
relu[grid](y, y, n, BLOCK=128)
check("relu in place", y, expected)

# An access before a view's first element is out of bounds, as in the interpreter, though the storage is there.
z = torch.zeros(32, device="cuda")
try:
    before_view[(1,)](z, z[4:], BLOCK=16)
    print("no error")
except triton.KernelLabError as err:
    print(err)
