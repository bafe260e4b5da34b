"""A helper's `boundary_check: tl.constexpr` given a tuple, read by tl.load through a block pointer, as lmdeploy's
flashattention.py `_load_kv(ptrs, boundary_check)` does (`if boundary_check is not None: tl.load(ptrs,
boundary_check=boundary_check, padding_option='zero')`). It was KL1043 "a tuple of 1 value, not one value" at the
load. Then the tuple (or None) chosen as lmdeploy's prefill kernel chooses it: `NAME: tl.constexpr = None` in one
branch and `= (1, )` in the other of an `if` on constexpr arithmetic (`if BLOCK_DK + BLOCK_DK1 == head_dim_k:`),
which was KL1022 ("has no value here") at the use of the None one and KL1043 at the load for the tuple. 37 elements
in a block of 64 (checked: the tail reads 0), then 64 in 64 (None: not checked)."""

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


@triton.jit
def copy_kernel_local(X, Y, N, BLOCK: tl.constexpr, HALF: tl.constexpr, EXTENT: tl.constexpr):
    if HALF + HALF == EXTENT:
        bound: tl.constexpr = None
    else:
        bound: tl.constexpr = (0, )
    p = tl.make_block_ptr(X, (N,), (1,), (0,), (BLOCK,), (0,))
    x = _load_kv(p, boundary_check=bound)
    tl.store(Y + tl.arange(0, BLOCK), x)


for name, launch in (("a helper's constexpr tuple", lambda x, y, n: copy_kernel[(1,)](x, y, n, BLOCK=64, FULL=n == 64)),
                     ("a constexpr local's tuple or None", lambda x, y, n: copy_kernel_local[(1,)](x, y, n, BLOCK=64, HALF=32, EXTENT=n))):
    x = torch.randn((37,), device=DEVICE)
    y = torch.full((64,), -1.0, device=DEVICE)
    launch(x, y, 37)
    ok = torch.equal(y[:37], x) and torch.equal(y[37:], torch.zeros((27,), device=DEVICE))
    x = torch.randn((64,), device=DEVICE)
    launch(x, y, 64)
    print(f"boundary_check from {name}:", "match" if ok and torch.equal(y, x) else "differ")
