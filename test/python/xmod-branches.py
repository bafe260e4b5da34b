# A kernel calling a helper that its module defines in each branch of an `if` on Triton's version
# (xmod_helpers/versioned.py, as mamba's softplus.py does): the run compiles the branch Python took.
import torch
import triton
import triton.language as tl

from xmod_helpers.versioned import shifted

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def shifted_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(Y + offs, shifted(tl.load(X + offs, mask=mask)), mask=mask)


n = 1000
x = torch.randn(n, device=DEVICE)
y = torch.full_like(x, float("nan"))
shifted_kernel[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
torch.testing.assert_close(y, x + 1.0)
print("helper of the branch Python took: max difference:", torch.max(torch.abs(y - (x + 1.0))).item())
