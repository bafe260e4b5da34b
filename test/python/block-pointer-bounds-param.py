"""A helper's `boundary_check: tl.constexpr` given a tuple, read by tl.load through a block pointer, as lmdeploy's
flashattention.py `_load_kv(ptrs, boundary_check)` does (`if boundary_check is not None: tl.load(ptrs,
boundary_check=boundary_check, padding_option='zero')`). It was KL1043 "a tuple of 1 value, not one value" at the
load. 37 elements in a block of 64 (checked: the tail reads 0), then 64 in 64 (None: not checked)."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def _load_kv(ptrs, boundary_check: tl.constexpr):
    if boundary_check is not None:
        return tl.load(ptrs, boundary_check=boundary_check, padding_option='zero')
    else:
        return tl.load(ptrs)


@triton.jit
def copy_kernel(X, Y, N, BLOCK: tl.constexpr, FULL: tl.constexpr):
    p = tl.make_block_ptr(X, (N,), (1,), (0,), (BLOCK,), (0,))
    x = _load_kv(p, boundary_check=(0,) if not FULL else None)
    tl.store(Y + tl.arange(0, BLOCK), x)


x = torch.randn((37,), device=DEVICE)
y = torch.full((64,), -1.0, device=DEVICE)
copy_kernel[(1,)](x, y, 37, BLOCK=64, FULL=False)
ok = torch.equal(y[:37], x) and torch.equal(y[37:], torch.zeros((27,), device=DEVICE))
x = torch.randn((64,), device=DEVICE)
copy_kernel[(1,)](x, y, 64, BLOCK=64, FULL=True)
print("boundary_check from a helper's constexpr tuple:", "match" if ok and torch.equal(y, x) else "differ")
