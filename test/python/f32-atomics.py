"""tl.atomic_xchg and tl.atomic_cas on float32 (bench/NOTES.md §81), as Triton has them (semantic.py: atomic_xchg
refuses only fp16/bf16 and narrow ints; atomic_cas takes any 16-, 32- or 64-bit element and compares bits). The old
value comes back; xchg swaps the word's bits, cas compares them: -0.0 does not match +0.0, a NaN matches its own
bits. Masked lanes are left alone; `sem=` and `scope=` are accepted. 8 programs of 128 race on 5 and 6 slots; each
check holds whatever order they ran in. Outputs poisoned with 7.25 (no input is 7.25)."""

import random
import struct
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def xchg_cas_kernel(X, Swapped, Claims, Cmps, XOld, COld, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(X + offs, mask=mask, other=1.0)
    old = tl.atomic_xchg(Swapped + offs % 5, v, mask=mask, sem="acq_rel", scope="gpu")
    tl.store(XOld + offs, old, mask=mask)
    c = tl.load(Cmps + offs % 6)
    # Triton's atomic_cas has no mask: the lanes past n compare with a cmp no slot holds (-1.0), so they never swap.
    c = tl.where(mask, c, -1.0)
    seen = tl.atomic_cas(Claims + offs % 6, c, v, sem="acq_rel")
    tl.store(COld + offs, seen, mask=mask)


def bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def check():
    n, BLOCK = 1001, 128
    rng = random.Random(5)
    xs = [rng.uniform(1, 2) for _ in range(n)]
    x = torch.tensor(xs, dtype=torch.float32)
    xs = x.tolist()
    xchg_init = [0.5, -0.0, float("nan"), 3.0, -4.0]
    # Slots 0, 1, 3 (NaN vs NaN) and 5 swap once; 2 (-0.0 vs +0.0) and 4 (+0.0 vs -0.0) never.
    cas_init = [0.0, 0.0, -0.0, float("nan"), 0.0, 1.5]
    cas_cmp = [0.0, 0.0, 0.0, float("nan"), -0.0, 1.5]
    swapped = torch.tensor(xchg_init).to(DEVICE)
    claims = torch.tensor(cas_init).to(DEVICE)
    x_old = torch.full((n + 3,), 7.25).to(DEVICE)
    c_old = torch.full((n + 3,), 7.25).to(DEVICE)
    xchg_cas_kernel[(triton.cdiv(n, BLOCK),)](x.to(DEVICE), swapped, claims, torch.tensor(cas_cmp).to(DEVICE), x_old, c_old, n, BLOCK=BLOCK)
    swapped, claims, x_old, c_old = swapped.cpu().tolist(), claims.cpu().tolist(), x_old.cpu().tolist(), c_old.cpu().tolist()
    for s in range(5):
        lanes = [i for i in range(n) if i % 5 == s]
        seen = sorted([bits(x_old[i]) for i in lanes] + [bits(swapped[s])])
        given = sorted([bits(xs[i]) for i in lanes] + [bits(xchg_init[s])])
        assert seen == given, f"atomic_xchg slot {s}: the old values and the final contents are not the values exchanged"
    swaps = 0
    for s in range(6):
        lanes = [i for i in range(n) if i % 6 == s]
        if bits(cas_init[s]) != bits(cas_cmp[s]):
            assert bits(claims[s]) == bits(cas_init[s]), f"atomic_cas slot {s} changed though cmp's bits differ"
            assert all(bits(c_old[i]) == bits(cas_init[s]) for i in lanes), f"atomic_cas slot {s}: a lane saw another value"
            continue
        winners = [i for i in lanes if bits(c_old[i]) == bits(cas_init[s])]
        assert len(winners) == 1, f"atomic_cas slot {s}: {len(winners)} lanes saw its first contents"
        assert bits(claims[s]) == bits(xs[winners[0]]), f"atomic_cas slot {s} doesn't hold the winner's value"
        assert all(bits(c_old[i]) == bits(xs[winners[0]]) for i in lanes if i != winners[0]), f"atomic_cas slot {s}: a loser didn't see the winner"
        swaps += 1
    assert x_old[n:] == [7.25] * 3 and c_old[n:] == [7.25] * 3, "masked lanes must not store"
    print(f"tl.atomic_xchg and tl.atomic_cas of float32 from 8 programs racing on 5 and 6 slots, {n} elements: exchanged bit for bit, {swaps} compare-and-swaps won once each (-0.0 is not +0.0, NaN is NaN)")


check()
