# A helper in a folder beside the script without __init__.py (xmod_namespace/), imported as CPython 3
# imports a namespace package: `import pkg.mod` and `from pkg.mod import helper`. Checked against
# torch on a size that isn't a multiple of the block, the output poisoned.
import torch
import triton
import triton.language as tl

import xmod_namespace.activations
import xmod_namespace.scales
from xmod_namespace.activations import leaky

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def leaky_kernel(X, Y, Z, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    tl.store(Y + offs, leaky(x, 0.1), mask=mask)
    tl.store(Z + offs, xmod_namespace.scales.twice(xmod_namespace.activations.leaky(x, 0.5)), mask=mask)


n = 1000
x = torch.randn(n, device=DEVICE)
y = torch.full_like(x, float("nan"))
z = torch.full_like(x, float("nan"))
leaky_kernel[(triton.cdiv(n, 256),)](x, y, z, n, BLOCK=256)
torch.testing.assert_close(y, torch.where(x > 0, x, x * 0.1))
torch.testing.assert_close(z, torch.where(x > 0, x, x * 0.5) * 2.0)
print("namespace package helper: match")
