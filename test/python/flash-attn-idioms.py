"""Idioms of flash-attention's Triton kernels (Dao-AILab/flash-attention, flash_attn/ops/triton/), in
kernels of ours:
launching through `torch.library.wrap_triton(kernel)[grid](…)` inside a function registered with
`torch.library.triton_op` (layer_norm.py, rotary.py; flash_attn/utils/library.py also imports
`torch._library.triton.set_wrap_triton_enabled` and `torch._subclasses.functional_tensor.FunctionalTensorMode`);
a constexpr computed in the kernel by Triton's host function, `BLOCK_K: tl.constexpr = triton.next_power_of_2(ROTARY_DIM)`;
the last axis of a 3-D block deinterleaved and interleaved through a 4-D shape,
`tl.split(tl.reshape(x, [BLOCK_H, BLOCK_M, BLOCK_K // 2, 2]))` and
`tl.reshape(tl.join(o0, o1), [BLOCK_H, BLOCK_M, BLOCK_K])` (rotary.py's INTERLEAVED);
an autograd Function returning a second output marked `ctx.mark_non_differentiable` (cross_entropy.py's
z_losses), and one of bools (layer_norm.py's dropout masks): arithmetic takes both as plain tensors,
and backward gets zeros for them;
Triton 2.0.0.dev's `tl.dot(q, k, trans_b=True)` (flash_attn_triton.py's forward and backward);
a @triton.jit helper that returns no value returning early at run time, called in a loop
(flash_attn_triton.py's _bwd_kernel_one_col_block: `if begin_m >= seqlen_q: …store…; return`);
a slice of a tensor's shape is a torch.Size (linear.py: `batch_shape = x.shape[:-1]; batch_shape.numel()`).
Sizes off the block."""

import torch
import triton
import triton.language as tl
from torch._library.triton import set_wrap_triton_enabled
from torch._subclasses.functional_tensor import FunctionalTensorMode

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def swap_pairs_kernel(x_ptr, out_ptr, rows, ROW: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_M: tl.constexpr):
    # rows of H × M × ROW elements; each (even, odd) pair along ROW becomes (odd - even, odd + even).
    BLOCK_K: tl.constexpr = triton.next_power_of_2(ROW)
    rh = tl.program_id(0) * BLOCK_H + tl.arange(0, BLOCK_H)
    rm = tl.arange(0, BLOCK_M)
    rk = tl.arange(0, BLOCK_K)
    offs = rh[:, None, None] * (BLOCK_M * ROW) + rm[None, :, None] * ROW + rk[None, None, :]
    mask = (rh[:, None, None] < rows) & (rk[None, None, :] < ROW)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x0, x1 = tl.split(tl.reshape(x, [BLOCK_H, BLOCK_M, BLOCK_K // 2, 2]))
    o = tl.reshape(tl.join(x1 - x0, x1 + x0), [BLOCK_H, BLOCK_M, BLOCK_K])
    tl.store(out_ptr + offs, o, mask=mask)


@torch.library.triton_op("kl_test::swap_pairs", mutates_args={"out"}, schema="(Tensor x, Tensor(a!) out) -> ()")
def swap_pairs(x: torch.Tensor, out: torch.Tensor) -> None:
    rows, m, row = x.shape
    with set_wrap_triton_enabled(False):
        torch.library.wrap_triton(swap_pairs_kernel)[(triton.cdiv(rows, 2),)](x, out, rows, ROW=row, BLOCK_H=2, BLOCK_M=m)


swap_pairs.register_torch_dispatch(FunctionalTensorMode, lambda mode, op, types, args, kwargs: None)

x = torch.randn(5, 4, 24, device=DEVICE)
out = torch.empty_like(x)
swap_pairs(x, out)
xs = x.cpu().tolist()
ref = [[[(r[k + 1] - r[k]) if k % 2 == 0 else (r[k] + r[k - 1]) for k in range(24)] for r in plane] for plane in xs]
torch.testing.assert_close(out.cpu(), torch.tensor(ref), atol=1e-6, rtol=1e-6)
print("wrap_triton in a triton_op; triton.next_power_of_2 for a constexpr; split of a 4-D reshape, reshape of a 4-D join: match")


@triton.jit
def square_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * x, mask=offs < n)


class SquareWithLog(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.empty_like(x)
        square_kernel[(triton.cdiv(x.numel(), 32),)](x, y, x.numel(), BLOCK=32)
        logged = y.detach().clone()
        ctx.save_for_backward(x)
        ctx.mark_non_differentiable(logged)
        return y, logged, y > 1.0

    @staticmethod
    def backward(ctx, dy, dlogged, dbig):
        (x,) = ctx.saved_tensors
        assert float(dlogged.abs().max()) == 0.0
        return 2 * x * dy


x = torch.randn(45, device=DEVICE, requires_grad=True)
y, logged, big = SquareWithLog.apply(x)
assert y.requires_grad and not logged.requires_grad and not big.requires_grad
diff = (logged.cpu() - x.detach().cpu() ** 2).abs().max().item()
assert big.float().mean().item() == (x.detach().cpu() ** 2 > 1.0).float().mean().item()
y.backward(torch.ones_like(y))
torch.testing.assert_close(x.grad.cpu(), 2 * x.detach().cpu())
print(f"outputs marked non-differentiable or of bools are plain tensors ({diff:.1e}), backward gets zeros for them: match")


@triton.jit
def _store_block(out_ptr, k_ptr, returned_ptr, q, row, rows, cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    offs_n = row * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.arange(0, BLOCK_M)
    if row * BLOCK_N >= cols:
        tl.store(returned_ptr + row, 1)
        return
    k = tl.load(k_ptr + offs_n[:, None] * D + tl.arange(0, D)[None, :], mask=offs_n[:, None] < cols, other=0.0)
    s = tl.dot(q, k, trans_b=True)
    tl.store(out_ptr + offs_m[:, None] * cols + offs_n[None, :], s, mask=(offs_m[:, None] < rows) & (offs_n[None, :] < cols))
    tl.store(returned_ptr + row, 0)


@triton.jit
def scores_kernel(q_ptr, k_ptr, out_ptr, returned_ptr, rows, cols, n_blocks, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    q = tl.load(q_ptr + offs_m[:, None] * D + tl.arange(0, D)[None, :], mask=offs_m[:, None] < rows, other=0.0)
    for row in range(0, n_blocks):
        _store_block(out_ptr, k_ptr, returned_ptr, q, row, rows, cols, BLOCK_M, BLOCK_N, D)


q = torch.randn(20, 16, device=DEVICE)
k = torch.randn(37, 16, device=DEVICE)
out = torch.full((20, 37), float("nan"), device=DEVICE)
returned = torch.full((5,), -1, dtype=torch.int32, device=DEVICE)
# Three blocks of 16 keys cover 37; the fourth and fifth trips return early.
scores_kernel[(1,)](q, k, out, returned, 20, 37, 5, BLOCK_M=32, BLOCK_N=16, D=16)
torch.testing.assert_close(out.cpu(), q.cpu() @ k.cpu().t(), atol=1e-4, rtol=1e-4)
assert returned.cpu().tolist() == [0, 0, 0, 1, 1], returned.cpu().tolist()
print("tl.dot(q, k, trans_b=True); a helper without a value returning early at run time, in a loop: match")


x = torch.randn(2, 3, 7, device=DEVICE)
batch_shape, n = x.shape[:-1], x.shape[-1]
assert isinstance(batch_shape, torch.Size) and isinstance(x.shape[1:] + (4,), torch.Size)
out = torch.empty(batch_shape.numel(), n, device=DEVICE)
square_kernel[(triton.cdiv(x.numel(), 32),)](x.reshape(batch_shape.numel(), n), out, x.numel(), BLOCK=32)
torch.testing.assert_close(out.reshape(*batch_shape, n).cpu(), x.cpu() ** 2)
print(f"x.shape[:-1] is {batch_shape}, numel {batch_shape.numel()}: match")
