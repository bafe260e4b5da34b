"""A helper whose parameter is named by a word TypeScript reserves (`do`, as flash-linear-attention's simple_gla backward
names its gradient), called with keywords, and a kernel launched by keyword with it (Kernel Lab's own file). Was KL1042
"scale_into has no keyword 'do'; its keywords are do_, …"."""

import torch
import triton
import triton.language as tl


@triton.jit
def scale_into(do, dq, offs, n, scale: tl.constexpr = 2.0):
    tl.store(dq + offs, tl.load(do + offs, mask=offs < n) * scale, mask=offs < n)


@triton.jit
def bwd_kernel(do, dq, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    scale_into(do=do, dq=dq, offs=offs, n=n)


x = torch.rand(100, device="cuda")
y = torch.full((100,), float("nan"), device="cuda")
bwd_kernel[(4,)](x, y, 100, BLOCK=32)
assert y.tolist() == [2 * v for v in x.tolist()], y.tolist()
bwd_kernel[(4,)](do=x, dq=y, n=100, BLOCK=32)
print("a helper's parameter named do, by keyword: match")
