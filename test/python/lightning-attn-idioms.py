"""Idioms of lightning-attention's Triton kernels and host code (OpenNLPLab/lightning-attention,
lightning_attn/ops/), in kernels of ours:
a 64 × 64 decay mask exp(-s·(i - j)) (i ≥ j) of indices and a loaded scalar, transposed with tl.trans
and multiplied into a tl.dot's result (_bwd_intra_kernel's `diag_decay_trans`): recomputed, so the kernel
fits WebGPU's default 16 KiB of workgroup memory (it staged 16 KiB more);
`if s != None:` on a tensor (lightning_attn_interface.py);
a gradient through F.pad (v's feature dim padded to a power of 2), through a slice of the result, and
through `o = 0; o += fn(…)` summed over head slices (d > 128), to a torch.autograd.Function's inputs.
Sizes off the block."""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def decay_dot_kernel(K, Q, S, Out, n, BLOCK: tl.constexpr, D: tl.constexpr):
    s = tl.load(S)
    array = tl.arange(0, BLOCK).to(tl.float32)
    index = array[:, None] - array[None, :]
    s_index = s * index
    s_index = tl.where(index >= 0, -s_index, float("-inf"))
    diag_decay = tl.exp(s_index)
    diag_decay_trans = tl.trans(diag_decay)
    rows = tl.arange(0, BLOCK)
    k = tl.load(K + rows[:, None] * D + tl.arange(0, D)[None, :], mask=rows[:, None] < n, other=0.0)
    q_trans = tl.load(Q + rows[None, :] * D + tl.arange(0, D)[:, None], mask=rows[None, :] < n, other=0.0)
    qk_trans = tl.dot(k, q_trans) * diag_decay_trans
    tl.store(Out + rows[:, None] * BLOCK + rows[None, :], qk_trans, mask=(rows[:, None] < n) & (rows[None, :] < n))


n, D = 50, 16
k = torch.randn((n, D), device=DEVICE)
q = torch.randn((n, D), device=DEVICE)
s = torch.tensor([0.0625], device=DEVICE)
out = torch.full((64, 64), 7.0, device=DEVICE)
decay_dot_kernel[(1,)](k, q, s, out, n, BLOCK=64, D=D)
i = torch.arange(n, device=DEVICE).float()
diff = i[None, :] - i[:, None]  # (j, i): query i, key j, i - j
want = (k @ q.t()) * torch.where(diff >= 0, torch.exp(-0.0625 * diff), torch.zeros_like(diff))
torch.testing.assert_close(out[:n, :n], want, atol=1e-4, rtol=1e-4)
print("a transposed exp decay mask of indices and a scalar, beside tl.dot: match")

if s != None:
    assert not (s == None)
    print("a tensor compared with None: match")


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * scale, mask=offs < n)


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        out = torch.empty_like(x)
        scale_kernel[(triton.cdiv(x.numel(), 128),)](x, out, x.numel(), scale, BLOCK=128)
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, do):
        dx = torch.empty_like(do)
        scale_kernel[(triton.cdiv(do.numel(), 128),)](do, dx, do.numel(), ctx.scale, BLOCK=128)
        return dx, None


x = torch.randn((3, 5, 48), device=DEVICE).requires_grad_()
y = torch.randn((3, 5, 48), device=DEVICE).requires_grad_()
padded = F.pad(x, (0, 16))  # 48 -> 64, as lightning_attn_func pads v
o = 0
for start, end in ((0, 32), (32, 64)):  # as lightning_attn_func sums over slices of the head
    o += Scale.apply(padded[..., start:end], 2.0) + y[..., :32]
o = o - y[..., 16:]
g = torch.randn((3, 5, 32), device=DEVICE)
o.backward(g)
want_x = torch.cat([2.0 * g, 2.0 * g[..., :16]], dim=-1)
want_y = torch.cat([2.0 * g[..., :16], 2.0 * g[..., 16:] - g[..., :16], -g[..., 16:]], dim=-1)
torch.testing.assert_close(x.grad, want_x)
torch.testing.assert_close(y.grad, want_y)
print("gradients through F.pad, slices, 0 + t, t += u and t - u: match")


@triton.jit
def reassigned_in_loop_kernel(X, Out, n, BLOCK: tl.constexpr, TRIPS: tl.constexpr):
    # _bwd_diag_kernel's `do`: a name assigned, then assigned afresh first thing in a later loop.
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.0)
    tl.store(Out + offs, x, mask=offs < n)
    for j in range(TRIPS):
        x = tl.load(X + offs, mask=offs < n, other=0.0) * (j + 2)
        tl.store(Out + (j + 1) * n + offs, x, mask=offs < n)


n = 37
x = torch.randn(n, device=DEVICE)
out = torch.full((3 * n,), float("nan"), device=DEVICE)
reassigned_in_loop_kernel[(1,)](x, out, n, BLOCK=64, TRIPS=2)
torch.testing.assert_close(out, torch.cat([x, 2 * x, 3 * x]))
print("a name assigned again first thing in a later loop: match")
