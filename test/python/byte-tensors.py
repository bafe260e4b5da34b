"""torch.bool, int8 and uint8 tensors as kernel pointers (1 byte per element, 4 to a GPU word), in
the style of kernel libraries (FlagGems' dropout stores its keep-mask into a torch.bool): rows of
37 elements, one program per row, so neighbouring programs store bytes of the same words; sizes
that are not multiples of 4 or of the block; outputs poisoned (int8/uint8 by torch.empty, a bool
mask by running twice, over all-True and over all-False). Comparisons and torch.where on GPU
tensors are GPU kernels giving bool tensors; everything is checked against the CPU. Last, a bool
output from torch.empty that a kernel leaves partly unwritten fails every check against torch, and
prints the unwritten element as its poison byte, 0xad."""

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
THRESHOLD: tl.constexpr = 0.25


@triton.jit
def keep_rows_kernel(x_ptr, keep_ptr, y_ptr, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=inside, other=0.0)
    keep = x > THRESHOLD
    tl.store(keep_ptr + row * n_cols + cols, keep, mask=inside)
    tl.store(y_ptr + row * n_cols + cols, tl.where(keep, x * scale, 0.0), mask=inside)


@triton.jit
def bytes_kernel(mask_ptr, a_ptr, b_ptr, sum_ptr, diff_ptr, scaled_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    m = tl.load(mask_ptr + offs, mask=inside, other=False)
    a = tl.load(a_ptr + offs, mask=inside, other=0)  # int8: sign-extended
    b = tl.load(b_ptr + offs, mask=inside, other=0)  # uint8: zero-extended
    tl.store(sum_ptr + offs, tl.where(m, a + b, a - b), mask=inside)  # int8 with uint8 is uint8 (Triton's promotion), stored to int32
    tl.store(diff_ptr + offs, (a - b).to(diff_ptr.dtype.element_ty), mask=inside)  # int8: the low 8 bits
    tl.store(scaled_ptr + offs, (a.to(tl.float32) * 2.5).to(tl.uint8), mask=inside)  # toward zero, then the low 8 bits


def keep_rows(x, scale, fill):
    rows, n_cols = x.shape
    keep = torch.full((rows, n_cols), fill, dtype=torch.bool, device=x.device)
    y = torch.empty_like(x)
    keep_rows_kernel[(rows, )](x, keep, y, n_cols, scale, BLOCK=triton.next_power_of_2(n_cols))
    return keep, y


torch.manual_seed(0)
x = torch.randn(23, 37, device=DEVICE)
for fill in (True, False):
    keep, y = keep_rows(x, 1 / 0.7, fill)
    assert keep.dtype == torch.bool and keep.element_size() == 1
    assert torch.equal(keep.cpu(), x.cpu() > 0.25), fill
    torch.testing.assert_close(y, torch.where(x > 0.25, x / 0.7, 0.0))
print("bool rows stored by 23 programs sharing words: match")

n = 1003
a = torch.randint(-128, 128, (n, ), dtype=torch.int8, device=DEVICE)
b = torch.randint(0, 256, (n, ), dtype=torch.uint8, device=DEVICE)
m = torch.randn(n, device=DEVICE) > 0
assert m.device == DEVICE and m.dtype == torch.bool
total = torch.empty(n, dtype=torch.int32, device=DEVICE)
diff = torch.empty(n, dtype=torch.int8, device=DEVICE)
scaled = torch.empty(n, dtype=torch.uint8, device=DEVICE)
bytes_kernel[(triton.cdiv(n, 128), )](m, a, b, total, diff, scaled, n, BLOCK=128)
ai, bi = a.cpu().to(torch.int32), b.cpu().to(torch.int32)
assert torch.equal(total.cpu(), torch.where(m.cpu(), (ai + bi) % 256, (ai - bi) % 256))
assert torch.equal(diff.cpu().to(torch.int32), ((ai - bi + 128) % 256) - 128)
assert torch.equal(scaled.cpu().to(torch.int32), (ai.float() * 2.5).to(torch.int32) % 256)
print("int8 and uint8 loads extend, .to(tl.int8 / tl.uint8) and stores wrap: match")

# Comparisons and torch.where on GPU tensors stay there (bool results), NaN compares unequal.
u = torch.randn(1001, device=DEVICE)
v = torch.randn(1001, device=DEVICE)
u[7] = float("nan")
uc, vc = u.cpu(), v.cpu()
for got, want in ((u < v, uc < vc), (u <= 0.5, uc <= 0.5), (u == u, uc == uc), (u != v, uc != vc), (0.0 > u, 0.0 > uc), (u >= v, uc >= vc),
                  ((u > 0) & (v > 0), (uc > 0) & (vc > 0)), (~(u > v), ~(uc > vc))):
    assert got.device == DEVICE and got.dtype == torch.bool
    assert torch.equal(got.cpu(), want)
torch.testing.assert_close(torch.where(u > v, u, v).cpu(), torch.where(uc > vc, uc, vc), equal_nan=True)
torch.testing.assert_close(torch.where(u > v, 1.0, v).cpu(), torch.where(uc > vc, 1.0, vc))
torch.testing.assert_close((u > v).float().cpu(), (uc > vc).float())
# .bool() is nonzero, so NaN (u[7]) is True as in torch: on the CPU, and by the GPU kernel's .to(tl.int1).
assert bool(uc.bool()[7]) and torch.equal(uc.bool(), uc != 0)
assert torch.equal(u.bool().cpu(), uc.bool()) and torch.equal(u.half().bool().cpu(), uc.bool())
print("comparisons and where on the GPU: match")

# torch.empty(dtype=torch.bool) and empty_like of a bool tensor are poisoned as every other dtype's empty:
# a kernel that leaves the last element of a bool output unwritten is caught by each check against torch.
@triton.jit
def positive_but_last_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x > 0, mask=offs < n - 1)  # the bug: n - 1


for make in (lambda: torch.empty(1001, dtype=torch.bool, device=DEVICE), lambda: torch.empty_like(u < 0)):
    out = make()
    assert out.dtype == torch.bool
    positive_but_last_kernel[(triton.cdiv(1001, 128), )](u, out, 1001, BLOCK=128)
    want = u > 0
    assert torch.equal(out[:-1], want[:-1]) and torch.equal(out[:-1].cpu(), want[:-1].cpu())
    # Printed, the unwritten element is its poison byte, not a True that nothing stored.
    assert repr(out[-1:]) == f"tensor([0xad], device='{out.device}')" and repr(out[-1]) == f"tensor(0xad, device='{out.device}')", repr(out[-1:])
    assert "0xad" not in repr(out[:-1]) and "0xad" not in str(out[:-1].cpu()), out[:-1]
    for fill in (True, False):
        want[-1] = fill
        assert not torch.equal(out, want) and not torch.equal(out.cpu(), want.cpu()), fill
        assert not bool((out == want).all()) and bool((out != want).any()), fill
        try:
            torch.testing.assert_close(out, want)
        except AssertionError as e:
            assert "Mismatched elements: 1 / 1001" in str(e), str(e)
        else:
            raise AssertionError(f"assert_close passed an unwritten bool element (torch's answer {fill})")
print("an unwritten element of torch.empty's bool output: caught")
