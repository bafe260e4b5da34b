"""Tensor descriptors as Triton 3.4's tutorials use them: a host TensorDescriptor passed to a kernel
(its block_shape set after construction, as an autotune pre_hook does), one made in the kernel with
tl.make_tensor_descriptor through a helper that passes a descriptor through (isinstance), desc.load
and desc.store at offsets the blocks don't divide, padding="nan", the descriptor's atomics
(desc.atomic_add … atomic_xor) from many programs over blocks past the tensor's edge, and what Triton
refuses or can't check: unaligned strides on the host, a shape larger than the tensor (an
out-of-bounds launch)."""

import torch

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def _as_descriptor(desc_or_ptr, shape, strides, block_shape):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


@triton.jit
def matmul_kernel(a_desc, b_ptr, c_desc, M, N, K,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    a_desc = _as_descriptor(a_desc, [M, K], [K, 1], [BLOCK_M, BLOCK_K])
    b_desc = _as_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = tl.load_tensor_descriptor(b_desc, [k * BLOCK_K, pid_n * BLOCK_N])
        accumulator = tl.dot(a, b, accumulator)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], accumulator.to(c_desc.dtype))


def matmul(a, b, BLOCK=16):
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=DEVICE, dtype=a.dtype)
    a_desc = TensorDescriptor.from_tensor(a, [1, 1])
    c_desc = TensorDescriptor(c, c.shape, c.stride(), [1, 1])
    # As tutorial 09's pre_hook does: the block shape is known once the config is.
    a_desc.block_shape = [BLOCK, BLOCK]
    c_desc.block_shape = [BLOCK, BLOCK]
    grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
    matmul_kernel[grid](a_desc, b, c_desc, M, N, K, BLOCK_M=BLOCK, BLOCK_N=BLOCK, BLOCK_K=BLOCK)
    return c


@triton.jit
def shifted_copy_kernel(x_desc, y_ptr, n, shift, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, x_desc.load([pid * BLOCK + shift]), mask=offs < n)


torch.manual_seed(0)
for M, N, K in [(37, 44, 24), (20, 12, 36)]:
    a = torch.randn((M, K), device=DEVICE)
    b = torch.randn((K, N), device=DEVICE)
    c = matmul(a, b)
    torch.testing.assert_close(c.cpu(), torch.matmul(a.cpu(), b.cpu()), atol=1e-4, rtol=1e-4)
print("descriptor matmul, host and device descriptors: match")

x = torch.randn(50, device=DEVICE)
y = torch.empty(60, device=DEVICE)
shifted_copy_kernel[(4,)](TensorDescriptor.from_tensor(x, [16], padding="nan"), y, 60, 5, BLOCK=16)
assert torch.equal(y[:45].cpu(), x[5:].cpu())
assert all(v != v for v in y[45:].tolist())
print("padding nan past the end: match")

try:
    TensorDescriptor.from_tensor(torch.randn((8, 5), device=DEVICE), [4, 4])
    print("unaligned strides: accepted")
except AssertionError as e:
    print(f"unaligned strides: {e}")



@triton.jit
def column_sums_kernel(x_desc, sums_desc, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # Each program adds its block's column sums into sums: programs of one column block add to the
    # same elements; the columns past the tensor's (37 is no multiple of 16) are left out.
    block = x_desc.load([tl.program_id(0) * BLOCK_R, tl.program_id(1) * BLOCK_C])
    sums_desc.atomic_add([tl.program_id(1) * BLOCK_C], tl.sum(block, axis=0))


@triton.jit
def combine_kernel(v_ptr, out_desc, OP: tl.constexpr):
    # Every program combines its own [8, 16] block of v into out's [5, 12]: the block lies over the
    # tensor's edge, and what lies outside is never touched (out is exactly 5 x 12).
    rows = tl.arange(0, 8)[:, None]
    cols = tl.arange(0, 16)[None, :]
    v = tl.load(v_ptr + tl.program_id(0) * 128 + rows * 16 + cols)
    if OP == 0:
        out_desc.atomic_max([0, 0], v)
    elif OP == 1:
        out_desc.atomic_min([0, 0], v)
    elif OP == 2:
        out_desc.atomic_add([0, 0], v)
    elif OP == 3:
        out_desc.atomic_or([0, 0], v)
    elif OP == 4:
        out_desc.atomic_and([0, 0], v)
    else:
        out_desc.atomic_xor([0, 0], v)


x = torch.randn(45, 40, device=DEVICE)  # rows of 40 (16-byte aligned), of which the descriptor takes 37
sums = torch.zeros(37, device=DEVICE)
column_sums_kernel[(3, 3)](TensorDescriptor(x, [45, 37], [40, 1], [16, 16]), TensorDescriptor.from_tensor(sums, [16]), BLOCK_R=16, BLOCK_C=16)
torch.testing.assert_close(sums, x[:, :37].sum(dim=0), atol=1e-4, rtol=1e-4)
v = torch.randint(-1000, 1000, (7, 8, 16), dtype=torch.int32, device=DEVICE)
inside = v.cpu()[:, :5, :12]
folds = [
    (lambda a, b: torch.maximum(a, b), -(2 ** 31)),
    (lambda a, b: torch.minimum(a, b), 2 ** 31 - 1),
    (lambda a, b: a + b, 0),
    (lambda a, b: a | b, 0),
    (lambda a, b: a & b, -1),
    (lambda a, b: a ^ b, 0),
]
for op, (fold, start) in enumerate(folds):
    out = torch.full((5, 12), start, dtype=torch.int32, device=DEVICE)
    combine_kernel[(7,)](v, TensorDescriptor.from_tensor(out, [8, 16]), OP=op)
    want = torch.full((5, 12), start, dtype=torch.int32)
    for p in range(7):
        want = fold(want, inside[p])
    assert torch.equal(out.cpu(), want), (op, out, want)
print("descriptor atomics (add of float sums, max, min, add, or, and, xor of int32) over the edges: match")

x = torch.randn(40, device=DEVICE)
try:
    shifted_copy_kernel[(4,)](TensorDescriptor(x, [64], [1], [16]), y, 60, 0, BLOCK=16)
    print("a shape past the tensor: not caught")
except triton.OutOfBoundsError as e:
    print(f"a shape past the tensor: {str(e).splitlines()[0]}")
