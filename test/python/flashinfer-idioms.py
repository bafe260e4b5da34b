"""Idioms of flashinfer-ai/flashinfer's Triton kernels (flashinfer/triton/), in kernels of ours. ssd_chunk_state.py
defines its `softplus` helper twice, under `if TRITON3:` and `else:` at module level, and its kernel, launched from
that module's host function, calls it: the definition compiled must be the one Python bound (the first), though the
module is the kernel's own rather than one it imports. Sizes off the block."""

import torch
import triton

from flashinfer_kit.ssd import softplus_op

DEVICE = triton.runtime.driver.active.get_active_torch_device()

x = torch.randn(300, device=DEVICE) * 10
torch.testing.assert_close(softplus_op(x), torch.where(x <= 20.0, torch.log(torch.exp(x) + 1), x), atol=1e-5, rtol=1e-5)
print("a helper defined in both branches of a module-level if, called by a kernel of that module: match")
