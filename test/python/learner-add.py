# A learner's first Triton kernel, as blog posts write it: the kernel, the host function,
# tensors made with device="cuda", and the largest difference printed.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out


x = torch.rand(10000, device="cuda")
y = torch.rand(10000, device="cuda")
out = add(x, y)
print("max difference:", (out - (x + y)).abs().max().item())
