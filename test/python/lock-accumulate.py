"""Partial sums accumulated under a spin lock, as xformers' layer_norm_bwd_dx_fused (and Triton's
tutorial 05) accumulate dw/db: a program takes the lock with tl.atomic_cas, stores (or loads, adds
and stores) a row of GROUP rows, and releases the lock with tl.atomic_xchg. The release, one
invocation's atomic, must come after every invocation's stores; the rows start as torch.empty's
poison, so a program that reads a row before the last holder's stores landed sees NaN. Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def accumulate_rows(X, Partial, Lock, N, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * N + cols, mask=mask, other=0.0)
    lock_id = row % GROUP
    Lock += lock_id
    Count = Lock + GROUP
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        x += tl.load(Partial + lock_id * N + cols, mask=mask, other=0.0)
    tl.store(Partial + lock_id * N + cols, x, mask=mask)
    tl.atomic_xchg(Lock, 0)


M, N, GROUP = 24, 1000, 2
x = torch.randn(M, N, device=DEVICE)
for _ in range(3):
    partial = torch.empty(GROUP, N, device=DEVICE)
    locks = torch.zeros(2 * GROUP, dtype=torch.int32, device=DEVICE)
    accumulate_rows[(M,)](x, partial, locks, N, GROUP=GROUP, BLOCK=1024, num_warps=8)
    expect = torch.stack([x.cpu()[g::GROUP].sum(dim=0) for g in range(GROUP)])
    torch.testing.assert_close(partial.cpu(), expect, atol=1e-4, rtol=1e-4)
print("rows accumulated under a lock: match")
