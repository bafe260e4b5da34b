"""Idioms of meta-pytorch/tritonbench's Triton kernels (tritonbench/operators/sum/kernels.py), in a kernel of ours.
The sum kernels load with `other=mask`: Triton casts `other` to the element type, so the lanes masked off read 0 (was
KL2003 "tl.load's other takes numbers, not masks"). And `triton_sum_kernel_1D_result_*` bind `idxs, mask = None, None`
before a constexpr `if dim == 0: … elif dim == 1: …` gives both their values (was KL1101 "None as a value").
Sizes off the blocks: 77×300 summed over each axis with 32×64 tiles. And operators/int4_gemm/kernel.py unpacks two int4
per int8: `tl.static_assert(b.dtype == tl.int8)` on the loaded bytes (was KL2074: their dtype read int32), and
`_4_i8 = tl.full((1,), 4, dtype=tl.int8)`, `(b << _4_i8) >> _4_i8` and `b >> _4_i8`, 8-bit shifts that sign-extend each
nibble (was KL2080: tl.int8 has no WGSL type); here on 37 bytes of 64-lane blocks. kernels/profile.py's helpers end in
`if IS_HIP: return … elif IS_CUDA: return … else: tl.static_assert(False, "Unsupported platform")` on module constexprs
bound by host calls (`IS_CUDA = tl.constexpr(is_cuda())`): the branch taken is the helper's return (was KL1071, "a device
function returns only as its last statement"), the constexprs are read as Python bound them (were KL1006, not defined),
and the helper is found in its package though the package's name starts with "triton" (`from tritonbench.kernels.profile
import time` was taken for one of Triton's modules: KL1004 at the call). tritonish_kit/profile.py is that module here."""

import torch
import triton
import triton.language as tl
from tritonish_kit.profile import platform_offset

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def sum_axis_kernel(X, Out, M, N, BLOCK_KEEP: tl.constexpr, BLOCK_RED: tl.constexpr, dim: tl.constexpr):
    keep_len = N if dim == 0 else M
    red_len = M if dim == 0 else N
    keep = tl.program_id(0) * BLOCK_KEEP + tl.arange(0, BLOCK_KEEP)
    acc = tl.zeros((BLOCK_KEEP,), dtype=tl.float32)
    for start in range(0, red_len, BLOCK_RED):
        red = start + tl.arange(0, BLOCK_RED)
        idxs, mask = None, None
        if dim == 0:
            idxs = red[:, None] * keep_len + keep[None, :]
            mask = (red[:, None] < red_len) & (keep[None, :] < keep_len)
        elif dim == 1:
            idxs = keep[:, None] * red_len + red[None, :]
            mask = (keep[:, None] < keep_len) & (red[None, :] < red_len)
        x = tl.load(X + idxs, mask=mask, other=mask)
        acc += tl.sum(x, axis=dim)
    tl.store(Out + keep, acc, mask=keep < keep_len)


# Launched once per axis from a loop over literals (`kernel-lab check` checks dim 0 and dim 1: was KL1022 at the load,
# dim unknown and neither branch taken).
x = torch.randn((77, 300), device=DEVICE)
for dim in (0, 1):
    out = torch.empty(300 if dim == 0 else 77, device=DEVICE)
    sum_axis_kernel[(triton.cdiv(out.numel(), 32),)](x, out, 77, 300, BLOCK_KEEP=32, BLOCK_RED=64, dim=dim)
    torch.testing.assert_close(out, x.sum(dim), atol=1e-4, rtol=1e-5)
print("other=mask and a tuple of Nones bound by constexpr branches: match")


@triton.jit
def unpack_int4_kernel(B, Out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(B + offs, mask=offs < n, other=0)
    tl.static_assert(b.dtype == tl.int8)
    _4_i8 = tl.full((1,), 4, dtype=tl.int8)
    b_lo = (b << _4_i8) >> _4_i8
    b_hi = b >> _4_i8
    both = tl.join(b_lo.to(tl.float32), b_hi.to(tl.float32)).reshape(2 * BLOCK)
    out = tl.program_id(0) * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(Out + out, both, mask=out < 2 * n)


nibbles = torch.randint(-8, 8, (74,), device=DEVICE)
packed = ((nibbles[0::2] & 0xF) | (nibbles[1::2] << 4)).to(torch.int8)
out = torch.empty(74, device=DEVICE)
unpack_int4_kernel[(triton.cdiv(37, 64),)](packed, out, 37, BLOCK=64)
torch.testing.assert_close(out, nibbles.float())
print("int8 loads are tl.int8; tl.full(…, dtype=tl.int8) and 8-bit shifts sign-extend nibbles: match")


@triton.jit
def int8_zeros_kernel(Q, Out, S, n, BLOCK: tl.constexpr):
    # Since a loaded byte's dtype is tl.int8: zeros of it are 8-bit (their arithmetic wraps, as Triton's), and a
    # reduction's dtype=q.dtype sums in the i32 the bytes are held in, as before.
    offs = tl.arange(0, BLOCK)
    q = tl.load(Q + offs, mask=offs < n, other=0)
    tl.store(Out + offs, tl.zeros([BLOCK], dtype=q.dtype) + q * 3, mask=offs < n)
    tl.store(S, tl.sum(q, axis=0, dtype=q.dtype))


q = torch.tensor([100, -100, 50, 7, -1], dtype=torch.int8, device=DEVICE)
wrapped = torch.empty(5, dtype=torch.int32, device=DEVICE)
total = torch.empty(1, dtype=torch.int32, device=DEVICE)
int8_zeros_kernel[(1,)](q, wrapped, total, 5, BLOCK=8)
assert wrapped.tolist() == [44, -44, -106, 21, -3] and total.tolist() == [56], (wrapped.tolist(), total.tolist())


def scale_for_platform():
    return 2.0


SCALE = tl.constexpr(scale_for_platform())


@triton.jit
def add_platform_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n) * SCALE + platform_offset(), mask=offs < n)


x = torch.randn(50, device=DEVICE)
y = torch.empty_like(x)
add_platform_kernel[(1,)](x, y, 50, BLOCK=64)
torch.testing.assert_close(y, x * 2 + 7)
print("module constexprs bound by host calls; a helper of a package named triton…, ending in an elif chain of returns: match")
