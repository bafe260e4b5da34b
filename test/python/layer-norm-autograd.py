"""Layer norm with its backward in the style of Triton's tutorial 05 (Kernel Lab's own file): a
torch.autograd.Function whose forward and backward launch kernels, ctx.save_for_backward,
requires_grad_, .grad, a backward that takes a spin lock per group of rows (tl.atomic_cas /
tl.atomic_xchg) to accumulate partial weight gradients, checked against
torch.nn.functional.layer_norm's forward and backward with assert_close."""

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def norm_forward(X, Y, W, B, Mean, Rstd, row_stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < N
    x = tl.load(X + row * row_stride + cols, mask=inside, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    centred = tl.where(inside, x - mean, 0.)
    rstd = 1 / tl.sqrt(tl.sum(centred * centred, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    w = tl.load(W + cols, mask=inside)
    b = tl.load(B + cols, mask=inside)
    tl.store(Y + row * row_stride + cols, centred * rstd * w + b, mask=inside)


@triton.jit
def norm_backward_dx(DX, DY, PartialDW, PartialDB, X, W, Mean, Rstd, Locks, row_stride, N,
                     GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < N
    x = tl.load(X + row * row_stride + cols, mask=inside, other=0).to(tl.float32)
    dy = tl.load(DY + row * row_stride + cols, mask=inside, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=inside).to(tl.float32)
    xhat = tl.where(inside, (x - tl.load(Mean + row)) * tl.load(Rstd + row), 0.)
    wdy = tl.where(inside, w * dy, 0.)
    dx = (wdy - (xhat * (tl.sum(xhat * wdy, axis=0) / N) + tl.sum(wdy, axis=0) / N)) * tl.load(Rstd + row)
    tl.store(DX + row * row_stride + cols, dx, mask=inside)
    # Rows share GROUPS partial sums; a group's lock is taken before adding into its row of them.
    group = row % GROUPS
    lock = Locks + group
    seen = Locks + GROUPS + group
    dw = PartialDW + group * N + cols
    db = PartialDB + group * N + cols
    partial_dw = dy * xhat
    partial_db = dy
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(seen) == 0:
        tl.atomic_xchg(seen, 1)
    else:
        partial_dw += tl.load(dw, mask=inside)
        partial_db += tl.load(db, mask=inside)
    tl.store(dw, partial_dw, mask=inside)
    tl.store(db, partial_db, mask=inside)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def norm_backward_dwdb(PartialDW, PartialDB, DW, DB, GROUPS, N, BLOCK_G: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros((BLOCK_G, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_G, BLOCK_N), dtype=tl.float32)
    for start in range(0, GROUPS, BLOCK_G):
        groups = start + tl.arange(0, BLOCK_G)
        inside = (groups[:, None] < GROUPS) & (cols[None, :] < N)
        dw += tl.load(PartialDW + groups[:, None] * N + cols[None, :], mask=inside, other=0.)
        db += tl.load(PartialDB + groups[:, None] * N + cols[None, :], mask=inside, other=0.)
    tl.store(DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(DB + cols, tl.sum(db, axis=0), mask=cols < N)


class LayerNorm(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps):
        y = torch.empty_like(x)
        rows = x.reshape(-1, x.shape[-1])
        M, N = rows.shape
        mean = torch.empty((M, ), dtype=torch.float32, device=x.device)
        rstd = torch.empty((M, ), dtype=torch.float32, device=x.device)
        BLOCK = triton.next_power_of_2(N)
        norm_forward[(M, )](rows, y, weight, bias, mean, rstd, rows.stride(0), N, eps, BLOCK=BLOCK)
        ctx.save_for_backward(x, weight, mean, rstd)
        ctx.BLOCK = BLOCK
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, mean, rstd = ctx.saved_tensors
        rows = x.reshape(-1, x.shape[-1])
        M, N = rows.shape
        GROUPS = 8
        locks = torch.zeros(2 * GROUPS, dtype=torch.int32, device=w.device)
        # Zeroed, not empty: a program's other warps may read `seen` after its first warp set it,
        # and then add what is in the partial sums (Kernel Lab's poisoned empty() shows that race).
        partial_dw = torch.zeros((GROUPS, N), dtype=torch.float32, device=w.device)
        partial_db = torch.zeros((GROUPS, N), dtype=torch.float32, device=w.device)
        dw = torch.empty_like(w)
        db = torch.empty_like(w)
        dx = torch.empty_like(dy)
        norm_backward_dx[(M, )](dx, dy, partial_dw, partial_db, rows, w, mean, rstd, locks, rows.stride(0), N,
                                GROUPS=GROUPS, BLOCK=ctx.BLOCK)
        grid = lambda meta: (triton.cdiv(N, meta['BLOCK_N']), )
        norm_backward_dwdb[grid](partial_dw, partial_db, dw, db, min(GROUPS, M), N, BLOCK_G=4, BLOCK_N=32)
        return dx, None, dw, db, None


layer_norm = LayerNorm.apply

torch.manual_seed(0)
M, N = 37, 100
weight = torch.rand((N, ), device=DEVICE, requires_grad=True)
bias = torch.rand((N, ), device=DEVICE, requires_grad=True)
x = -2.3 + 0.5 * torch.randn((M, N), device=DEVICE)
dy = .1 * torch.randn_like(x)
x.requires_grad_(True)

y_tri = layer_norm(x, (N, ), weight, bias, 1e-5)
y_ref = torch.nn.functional.layer_norm(x, (N, ), weight, bias, 1e-5)
print("y requires grad:", y_tri.requires_grad, "and has a grad_fn:", y_tri.grad_fn is not None)
y_tri.backward(dy, retain_graph=True)
dx_tri, dw_tri, db_tri = [t.grad.clone() for t in [x, weight, bias]]
x.grad, weight.grad, bias.grad = None, None, None
y_ref.backward(dy, retain_graph=True)
dx_ref, dw_ref, db_ref = [t.grad.clone() for t in [x, weight, bias]]

torch.testing.assert_close(y_tri, y_ref, atol=1e-4, rtol=0)
torch.testing.assert_close(dx_tri, dx_ref, atol=1e-4, rtol=0)
torch.testing.assert_close(dw_tri, dw_ref, atol=1e-4, rtol=0)
torch.testing.assert_close(db_tri, db_ref, atol=1e-4, rtol=0)
print("layer norm forward and backward match torch")
