"""Idioms of FlagOpen/FlagAttention's Triton kernels, in kernels of ours: the launch made under
`with torch.cuda.device(torch.cuda.device_of(q)):` (flash.py, piecewise.py, paged.py, split_kv.py, total.py: "to work
around https://github.com/openai/triton/issues/2441"), with the SM count read off
`torch.cuda.get_device_properties(torch.cuda.device_of(q))` (the split-kv heuristic). Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def scaled_rows_kernel(X, Out, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * n_cols + offs, mask=mask, other=0.0)
    tl.store(Out + row * n_cols + offs, x * scale, mask=mask)


q = torch.randn((13, 37), device=DEVICE)
out = torch.empty_like(q)
device = torch.cuda.device_of(q)
num_sms = torch.cuda.get_device_properties(device).multi_processor_count
assert isinstance(num_sms, int) and num_sms > 0
with torch.cuda.device(device):
    scaled_rows_kernel[(q.shape[0],)](q, out, q.shape[1], 0.5, BLOCK=64)
with torch.cuda.device_of(q):
    pass
torch.testing.assert_close(out, q * 0.5, atol=1e-6, rtol=1e-6)
print("with torch.cuda.device(torch.cuda.device_of(q)): launch, get_device_properties(device_of(q)): match")
