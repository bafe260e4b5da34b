"""A pointer chosen by `c ? a : b` at run time between two pointers into one tensor (Kernel Lab's own file), as
flash-linear-attention's TTT kernels write `p_eta_last = eta + … if i_t == NT-1 else eta + …`: a scalar pointer, and
a block of pointers; and per lane by `tl.where(c, x_ptr + i, x_ptr + j)`. Sizes off the block, outputs poisoned with NaN. Was KL2003 "the branches of c ? a : b can't be
pointers" and KL2003 "tl.where takes values, not pointers"."""

import torch
import triton
import triton.language as tl


@triton.jit
def last_kernel(E, Y, T, n_t, BT: tl.constexpr):
    # flash-linear-attention's TTT: the last row of a chunk, or of the sequence for the last chunk
    i_t = tl.program_id(0)
    p = E + (T - 1) if i_t == n_t - 1 else E + (i_t * BT + BT - 1)
    tl.store(Y + i_t, tl.load(p))


@triton.jit
def rows_kernel(X, Y, n, FLIP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    p = X + (n - 1 - offs) if pid % 2 == 1 else X + offs
    tl.store(Y + pid * BLOCK + offs, tl.load(p, mask=offs < n), mask=offs < n)


T = 70
e = torch.rand(T, device="cuda")
y = torch.full((5,), float("nan"), device="cuda")
last_kernel[(5,)](e, y, T, 5, BT=16)
want = [e.tolist()[min(i * 16 + 15, T - 1)] if i < 4 else e.tolist()[T - 1] for i in range(5)]
assert y.tolist() == want, (y.tolist(), want)
x = torch.rand(10, device="cuda")
z = torch.full((32,), float("nan"), device="cuda")
rows_kernel[(2,)](x, z, 10, FLIP=False, BLOCK=16)
assert z[:10].tolist() == x.tolist() and z[16:26].tolist() == x.tolist()[::-1], z.tolist()
print("pointers chosen by c ? a : b: match")


@triton.jit
def mirror_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = tl.where(offs < 4, X + offs, X + (n - 1 - offs))
    tl.store(Y + offs, tl.load(p, mask=offs < n), mask=offs < n)


w = torch.full((10,), float("nan"), device="cuda")
mirror_kernel[(1,)](x, w, 10, BLOCK=16)
xs = x.tolist()
assert w.tolist() == [xs[i] if i < 4 else xs[9 - i] for i in range(10)], w.tolist()
print("pointers chosen by tl.where: match")
