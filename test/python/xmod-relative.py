# A kernel library's package beside the script (xmod_relative/) whose modules import each other
# relatively, as published libraries do: its host function launches its own kernel, and a kernel of
# the script calls a helper of it that calls another through `from ..utils import clamp`.
import torch
import triton
import triton.language as tl

from xmod_relative.ops import scaled_clamp
from xmod_relative.ops._math import twice_clamped

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def twice_clamped_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(Y + offs, twice_clamped(tl.load(X + offs, mask=mask), 1.5), mask=mask)


n = 1000
x = torch.randn(n, device=DEVICE)
low, high = torch.full_like(x, -1.0), torch.full_like(x, 1.0)
expected = torch.minimum(torch.maximum(x * 2 * 0.75, low), high)
y = scaled_clamp(x, 0.75)
torch.testing.assert_close(y, expected)
print("scaled_clamp: max difference:", torch.max(torch.abs(y - expected)).item())

out = torch.full_like(x, float("nan"))
twice_clamped_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
expected = torch.minimum(torch.maximum(x * 2, low * 1.5), high * 1.5)
torch.testing.assert_close(out, expected)
print("twice_clamped: max difference:", torch.max(torch.abs(out - expected)).item())
