"""The idioms of scattermoe's Triton kernels and host code (scattermoe-long-compiles.py) that Kernel Lab stopped at,
reduced: a helper whose constexpr parameter, given True or False at the call, decides an `if` that binds a name to
a block or to None and a later `if` that stores it (_xty_and_bias's `compute_bias` and `db_acc`: was KL1101); and on
the host, `with torch.device(d):` (ParallelLinear's forward: was a TypeError), Tensor.bincount (flatten_sort_count),
the nn activation layers and nn.init.normal_ (MLP, GLUMLP), autograd through F.gelu, F.silu and * (the MLPs'
activations between two autograd Functions), each NotInKernelLab before. The host parts run on CPU tensors, which
keeps lavapipe's compiles to the one kernel."""

import math

import torch
import triton
import triton.language as tl
from torch import nn

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


@triton.jit
def _rows_and_sums(x_ptr, out_ptr, sums_ptr, n, BLOCK: tl.constexpr, with_sums: tl.constexpr):
    if with_sums:
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
    else:
        acc = None
    offs = tl.arange(0, BLOCK)
    for i in range(0, n):
        row = tl.load(x_ptr + i * BLOCK + offs)
        tl.store(out_ptr + i * BLOCK + offs, row * 2)
        if with_sums:
            acc += row
    if with_sums:
        tl.store(sums_ptr + offs, acc)


@triton.jit
def doubled(x_ptr, out_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    if sums_ptr is not None:
        _rows_and_sums(x_ptr, out_ptr, sums_ptr, n, BLOCK, with_sums=True)
    else:
        _rows_and_sums(x_ptr, out_ptr, sums_ptr, n, BLOCK, with_sums=False)


x = torch.randn((5, 16), device=DEVICE)
out = torch.empty_like(x)
sums = torch.empty((16,), device=DEVICE)
doubled[(1,)](x, out, sums, 5, BLOCK=16)
ok = torch.allclose(out, x * 2) and torch.allclose(sums, x.sum(0), atol=1e-5)
out2 = torch.empty_like(x)
doubled[(1,)](x, out2, None, 5, BLOCK=16)
print("a None chosen by a helper's constexpr True / False:", "match" if ok and torch.allclose(out2, x * 2) else "differ")

with torch.device(DEVICE):
    made = torch.zeros(3)
print("with torch.device(d):", "match" if made.device == torch.device(DEVICE) and torch.zeros(3).device.type == "cpu" else f"differ {made.device}")

counts = torch.tensor([3, 0, 3, 5, 0, 3]).bincount(minlength=8)
weighted = torch.bincount(torch.tensor([1, 1, 2]), weights=torch.tensor([0.5, 0.25, 2.0]))
print("bincount:", "match" if counts.tolist() == [2, 0, 0, 3, 0, 1, 0, 0] and counts.dtype == torch.int64
      and weighted.tolist() == [0.0, 0.75, 2.0] else f"differ {counts.tolist()} {weighted.tolist()}")

w = torch.empty(4, 3)
nn.init.normal_(w, std=0.02)
print("nn.init.normal_:", "match" if 0 < float(w.abs().max()) < 0.2 else f"differ {w.tolist()}")

h = torch.randn(7, 5)
grads = {}
for name, layer, slope in [
    ("GELU", nn.GELU(), lambda v: 0.5 * (1 + torch.erf(v / math.sqrt(2))) + v * torch.exp(-0.5 * v * v) / math.sqrt(2 * math.pi)),
    ("SiLU", nn.SiLU(), lambda v: torch.sigmoid(v) * (1 + v * (1 - torch.sigmoid(v)))),
]:
    hv = h.clone().requires_grad_()
    g = torch.randn(7, 5)
    layer(hv).backward(g)
    grads[name] = torch.allclose(hv.grad, g * slope(h), atol=1e-5)
a = torch.randn(7, 5).requires_grad_()
b = torch.randn(5).requires_grad_()
g = torch.randn(7, 5)
(a * b).backward(g)
grads["*"] = torch.allclose(a.grad, g * b.detach()) and torch.allclose(b.grad, (g * a.detach()).sum(0), atol=1e-5)
y = torch.randn(7, 5).requires_grad_()
prod = a + 0
prod *= y  # in place: y's gradient is a's values from before the product
prod.backward(g)
grads["*="] = torch.allclose(y.grad, g * a.detach())
print("autograd through nn.GELU, nn.SiLU, * and *=:", "match" if all(grads.values()) else f"differ {grads}")
