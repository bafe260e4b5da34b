"""tl.atomic_cas through a bf16 pointer (bench/NOTES.md §79). Triton's semantic.py has atomic_cas on any 16-bit
element (and atomic_add on bf16, liger-bf16-idioms.py) and refuses atomic_max/min/xchg/and/or/xor on bf16
("atomic_max does not support bf16"), as Kernel Lab does (KL2003, test/unit/compiler-diagnostics.test.ts). WGSL has
no 16-bit atomics: the cas is a compare-and-swap loop on the u32 word holding the element, the word's other half kept
(codegen/bytes.ts packedAtomic).

claim_kernel: 7 programs race to claim the same bf16 slots (0.0 -> their own mark), each with a window starting at
1 + pid % 3, so the two halves of a word are claimed by different programs at once; exactly one program may see 0.0
come back per slot, the slot must hold its mark and every other contender must see that mark; the sentinels in the
first word's low half and the last word's high half come back unchanged; the old values land in an output poisoned
with NaN. bits_kernel: the comparison is of the bits, as Triton's 16-bit cmpxchg: -0.0 does not match +0.0, a NaN
matches the same NaN; fresh random values, half of them compared equal, 1001 elements (off the block), masked loads
and stores."""

import math
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def claim_kernel(S, OLD, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mark = tl.full([BLOCK], 0.0, tl.bfloat16) + (pid + 1).to(tl.bfloat16)
    old = tl.atomic_cas(S + 1 + pid % 3 + offs, tl.zeros([BLOCK], tl.bfloat16), mark)
    tl.store(OLD + pid * BLOCK + offs, old)


@triton.jit
def bits_kernel(S, CMP, VAL, OLD, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    # Lanes past n compare with and write to the spare tail (cas has no mask in Triton): its cmp never matches.
    cmp = tl.load(CMP + offs, mask=mask, other=-1.0)
    val = tl.load(VAL + offs, mask=mask, other=9.0)
    old = tl.atomic_cas(S + offs, cmp, val)
    tl.store(OLD + offs, old, mask=mask)


def same(a, b):
    """Equal as bf16 bits would be: NaN with NaN, and the sign of zero."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def check_claims():
    P, BLOCK = 7, 32
    size = 1 + 2 + BLOCK + 1
    s = torch.zeros(size, dtype=torch.bfloat16)
    s[0] = 7.5
    s[size - 1] = -2.25
    s = s.to(DEVICE)
    old = torch.full((P, BLOCK), float("nan"), dtype=torch.bfloat16).to(DEVICE)
    claim_kernel[(P,)](s, old, BLOCK=BLOCK)
    sf = s.float().cpu().tolist()
    of = old.float().cpu().tolist()
    assert sf[0] == 7.5 and sf[size - 1] == -2.25, (sf[0], sf[size - 1])
    for j in range(1, size - 1):
        contenders = [p for p in range(P) if 1 + p % 3 <= j < 1 + p % 3 + BLOCK]
        seen = {p: of[p][j - 1 - p % 3] for p in contenders}
        winners = [p for p in contenders if same(seen[p], 0.0)]
        assert len(winners) == 1, (j, seen)
        w = winners[0]
        assert sf[j] == w + 1, (j, sf[j], w)
        assert all(seen[p] == w + 1 for p in contenders if p != w), (j, seen, w)
    print(f"tl.atomic_cas of bf16 slots claimed by {P} programs racing on shared words, {size - 2} slots: one winner each, the other halves kept")


def check_bits():
    torch.manual_seed(1)
    n, BLOCK = 1001, 128
    spare = BLOCK - n % BLOCK
    base = (torch.randn(n) * 4).to(torch.bfloat16)
    special = [(-0.0, 0.0), (0.0, -0.0), (float("nan"), float("nan")), (-0.0, -0.0), (float("inf"), float("inf")), (1.5, 1.5)]
    for i, (a, _) in enumerate(special):
        base[i] = a
    equal = torch.rand(n) < 0.5
    cmp = torch.where(equal, base, (base.float() + 1.0).to(torch.bfloat16))
    for i, (_, c) in enumerate(special):
        cmp[i] = c
    val = (torch.randn(n) * 4).to(torch.bfloat16)
    s = torch.cat([base, torch.full((spare,), 3.0, dtype=torch.bfloat16)]).to(DEVICE)
    old = torch.full((n,), float("nan"), dtype=torch.bfloat16).to(DEVICE)
    bits_kernel[(triton.cdiv(n, BLOCK),)](s, cmp.to(DEVICE), val.to(DEVICE), old, n, BLOCK=BLOCK)
    bl, cl, vl = base.float().tolist(), cmp.float().tolist(), val.float().tolist()
    sf, of = s.float().cpu().tolist(), old.float().cpu().tolist()
    swapped = 0
    for i in range(n):
        hit = same(bl[i], cl[i])
        swapped += hit
        assert same(of[i], bl[i]), (i, of[i], bl[i])
        assert same(sf[i], vl[i] if hit else bl[i]), (i, sf[i], bl[i], cl[i], vl[i])
    assert sf[n:] == [3.0] * spare, sf[n:]
    assert not same(sf[0], vl[0]) and math.copysign(1.0, sf[0]) < 0 and same(sf[2], vl[2]) and same(sf[3], vl[3]), sf[:6]
    print(f"tl.atomic_cas of bf16 compares bits (-0.0 is not +0.0, NaN is NaN): {n} elements, {swapped} swapped")


check_claims()
check_bits()
