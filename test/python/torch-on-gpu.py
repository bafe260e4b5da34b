"""torch's ops on GPU tensors run as GPU kernels (Kernel Lab's torch/_on_gpu.py): each result is
checked against the same op on CPU copies of the operands (the exact CPU ops), on fresh random
inputs whose sizes aren't multiples of the kernels' blocks; a NaN never passes."""

import math

import torch
import torch.nn.functional as F

import triton

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def check(got, expected, tol):
    assert got.device == DEVICE, got.device
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    torch.testing.assert_close(got.cpu(), expected, atol=tol, rtol=tol)


for dtype, tol in ((torch.float32, 1e-5), (torch.float16, 1e-2)):
    x = torch.randn(37, 1100, device=DEVICE, dtype=dtype)
    y = torch.randn(37, 1100, device=DEVICE, dtype=dtype)
    row = torch.randn(1100, device=DEVICE, dtype=dtype)
    xc, yc, rc = x.cpu(), y.cpu(), row.cpu()
    # Element-wise, broadcast, views read in place, Python numbers on either side, one storage twice.
    for op in (torch.add, torch.sub, torch.mul, torch.div, torch.maximum, torch.minimum):
        check(op(x, y), op(xc, yc), tol)
    check(x + row, xc + rc, tol)
    check(x[:, :1] * row[None, 5:], xc[:, :1] * rc[None, 5:], tol)
    check(x.T - y.T, xc.T - yc.T, tol)
    check(x * x, xc * xc, tol)
    check(3 - x / 7, 3 - xc / 7, tol)
    check(x * x.sum(), xc * xc.sum(), 1e-3 if dtype is torch.float32 else 2.0)
    for name in ("abs", "neg", "exp", "sigmoid", "relu"):
        check(getattr(torch, name)(x), getattr(torch, name)(xc), tol)
    check(x.abs().sqrt(), xc.abs().sqrt(), tol)
    check(x.half().float(), xc.half().float(), tol)
    check(x.to(torch.float32) * 2, xc.to(torch.float32) * 2, tol)
    # Reductions: the whole tensor and along a dim; float16 accumulated in float32.
    check(x.max(), xc.max(), 0)
    check(x.min(), xc.min(), 0)
    check(torch.max(torch.abs(x - y)), torch.max(torch.abs(xc - yc)), 0)
    check(x.sum(), xc.sum(), 1e-3 if dtype is torch.float32 else 0.5)
    check(x.mean(dim=1, keepdim=True), xc.mean(dim=1, keepdim=True), tol)
    check(x.sum(dim=0), xc.sum(dim=0), 1e-4 if dtype is torch.float32 else 0.1)
    check(x.amax(dim=0), xc.amax(dim=0), 0)
    check(torch.max(x, dim=1).values, torch.max(xc, dim=1).values, 0)
    # In place, through views.
    a, ac = x.clone(), xc.clone()
    a += y
    ac += yc
    a.mul_(2)
    ac.mul_(2)
    a[:, 3] = 0.5
    ac[:, 3] = 0.5
    a[1:5] = y[1:5]
    ac[1:5] = yc[1:5]
    check(a, ac, tol)
    # Softmax, matmul (batched; a transposed operand), layer norm.
    check(torch.softmax(x, dim=-1), torch.softmax(xc, dim=-1), tol)
    check(F.softmax(x, dim=0), F.softmax(xc, dim=0), tol)
    p = torch.randn(3, 70, 45, device=DEVICE, dtype=dtype)
    q = torch.randn(3, 45, 90, device=DEVICE, dtype=dtype)
    check(p @ q, p.cpu() @ q.cpu(), 10 * tol)
    check(torch.matmul(p[0], p[1].T), p[0].cpu() @ p[1].cpu().T, 10 * tol)
    w = torch.rand(1100, device=DEVICE, dtype=dtype)
    b = torch.rand(1100, device=DEVICE, dtype=dtype)
    check(F.layer_norm(x, (1100, ), w, b, 1e-5), F.layer_norm(xc, (1100, ), w.cpu(), b.cpu(), 1e-5), tol)
    check(torch.zeros(3, 5, device=DEVICE, dtype=dtype) + torch.full((5, ), 2.5, device=DEVICE, dtype=dtype), torch.full((3, 5), 2.5, dtype=dtype), 0)
    assert torch.empty(3, 5, device=DEVICE, dtype=dtype).isnan().all().item(), "torch.empty on the GPU starts poisoned"

# Tutorial 05's reference: F.layer_norm's backward on the GPU against the CPU's (rows of two blocks).
grads = []
inputs = (torch.randn(37, 1100), torch.rand(1100), torch.rand(1100), torch.randn(37, 1100))
for device in (DEVICE, "cpu"):
    x, w, bias, dy = (t.to(device) for t in inputs)
    for t in (x, w, bias):
        t.requires_grad_()
    F.layer_norm(x, (1100, ), w, bias, 1e-5).backward(dy)
    grads.append((x.grad, w.grad, bias.grad))
for got, expected in zip(*grads):
    check(got, expected, 1e-4)

# Ops with no GPU kernel (comparisons, torch.where, cumsum, more than 4 dimensions) read their GPU
# operands back and run on the CPU: the same answers, the result still on the GPU device.
z = torch.randn(37, 300, device=DEVICE) * 2
zc = z.cpu()
check(torch.where(z > 1, z, -z), torch.where(zc > 1, zc, -zc), 0)
check(z.cumsum(0), zc.cumsum(0), 1e-5)
v = torch.randn(2, 3, 2, 3, 5, device=DEVICE)
check(v * 3 + 1, v.cpu() * 3 + 1, 0)

# A long row is reduced in two steps; a NaN anywhere is the max's, the sum's and the check's answer.
x = torch.randn(70001, device=DEVICE)
check(x.sum(), x.cpu().sum(), 1e-2)
check(x.max(), x.cpu().max(), 0)
y = x.clone()
y[69999] = math.nan
assert math.isnan(torch.max(torch.abs(y - x)).item())
assert math.isnan(torch.min(y[60000:]).item())
assert math.isnan(y.sum().item())
try:
    torch.testing.assert_close(y + 1, x.cpu() + 1)
except AssertionError:
    pass
else:
    raise AssertionError("a NaN passed assert_close")

# torch.rand / randn on the GPU device: Philox, the same numbers after the same manual_seed; float16 stays below 1.
torch.manual_seed(7)
a = torch.rand(70001, device=DEVICE)
torch.manual_seed(7)
check(torch.rand(70001, device=DEVICE), a.cpu(), 0)
assert (torch.rand(70001, device=DEVICE) - a).abs().max().item() > 0.5, "the next draw differs"
assert 0 <= a.min().item() and a.max().item() < 1 and abs(a.mean().item() - 0.5) < 0.01, (a.min(), a.max(), a.mean())
normal = torch.randn(70001, device=DEVICE)
assert abs(normal.mean().item()) < 0.02 and abs((normal * normal).mean().item() - 1) < 0.03
assert torch.rand(70001, device=DEVICE, dtype=torch.float16).max().item() < 1

# Inside do_bench the same kernels are what is timed: no wall-clock note, nothing left out.
x = torch.rand(5000, device=DEVICE)
y = torch.rand(5000, device=DEVICE)
for fn in (lambda: x + y, lambda: torch.softmax(x.reshape(50, 100), dim=-1)):
    ms = triton.testing.do_bench(fn)
    assert ms > 0, ms
print("torch's GPU ops match its CPU ops")
