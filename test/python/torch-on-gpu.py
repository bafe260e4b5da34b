"""torch's ops as GPU kernels (Kernel Lab's own file): inside do_bench, x + y, torch.softmax,
torch.matmul and F.layer_norm with its backward are timed as GPU kernels, as torch's are on CUDA.
Here each of those kernels also runs checked, outside do_bench, against the exact CPU op, on sizes
that aren't multiples of their blocks."""

import torch
import torch.nn.functional as F

import triton
from torch import _on_gpu

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)

for dtype, tol in ((torch.float32, 1e-5), (torch.float16, 1e-2)):
    x = torch.randn(37, 1100, device=DEVICE, dtype=dtype)
    y = torch.randn(37, 1100, device=DEVICE, dtype=dtype)
    for op, expected in (("add", x + y), ("sub", x - y), ("mul", x * y), ("div", x / y)):
        out = torch.empty_like(x)
        _on_gpu.elementwise(op, x, y, out)
        torch.testing.assert_close(out, expected, atol=tol, rtol=tol)

    out = torch.empty_like(x)
    _on_gpu.softmax_rows(x, out)
    torch.testing.assert_close(out, torch.softmax(x, dim=-1), atol=tol, rtol=tol)

    a = torch.randn(3, 70, 45, device=DEVICE, dtype=dtype)
    b = torch.randn(3, 45, 90, device=DEVICE, dtype=dtype)
    c = torch.empty((3, 70, 90), device=DEVICE, dtype=dtype)
    _on_gpu.matmul(a, b, c, 3, 70, 45, 90)
    torch.testing.assert_close(c, a @ b, atol=10 * tol, rtol=tol)

    w = torch.rand(1100, device=DEVICE, dtype=dtype)
    bias = torch.rand(1100, device=DEVICE, dtype=dtype)
    out = torch.empty_like(x)
    _on_gpu.layer_norm(x, w, bias, 1e-5, out, 1100)
    torch.testing.assert_close(out, F.layer_norm(x, (1100, ), w, bias, 1e-5), atol=tol, rtol=tol)

x = torch.randn(37, 300, device=DEVICE, requires_grad=True)
w = torch.rand(300, device=DEVICE, requires_grad=True)
bias = torch.rand(300, device=DEVICE, requires_grad=True)
dy = torch.randn(37, 300, device=DEVICE)
F.layer_norm(x, (300, ), w, bias, 1e-5).backward(dy)
dx, dw, db = torch.empty_like(x), torch.empty_like(w), torch.empty_like(bias)
_on_gpu.layer_norm_backward(x.detach(), w.detach(), dy, 1e-5, dx, dw, db, 300)
torch.testing.assert_close(dx, x.grad, atol=1e-4, rtol=1e-4)
torch.testing.assert_close(dw, w.grad, atol=1e-4, rtol=1e-4)
torch.testing.assert_close(db, bias.grad, atol=1e-4, rtol=1e-4)

# Inside do_bench, torch's side is GPU time: no wall-clock note is printed.
x = torch.rand(5000, device=DEVICE)
y = torch.rand(5000, device=DEVICE)
for fn in (lambda: x + y, lambda: torch.softmax(x.reshape(50, 100), dim=-1)):
    ms = triton.testing.do_bench(fn)
    assert ms > 0, ms
print("torch's GPU kernels match its CPU ops")
