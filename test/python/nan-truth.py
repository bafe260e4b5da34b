"""NaN is true wherever a float becomes a truth value, as in Python and Triton: `if x:`, `while x:`,
`not x`, `x and y` / `x or y`, `a if x else b` on scalars, and tl.where with a float condition,
`.to(tl.int1)` and `and` / `or` of float blocks, in float32 and float16. Each form's answer is stored
as 0 or 1 and compared with Python's own bool() of the same numbers (a shader compiler may assume
floats are never NaN: lavapipe's `NaN != 0.0` was false). Last, a float's `!=` itself, NaN on
either side giving True."""

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
FORMS: tl.constexpr = 9


@triton.jit
def truth_of(x, one, out_ptr):
    """Forms 0-5 for the scalar x (one is 1.0, loaded, so nothing folds)."""
    if x:
        tl.store(out_ptr + 0, 1)
    else:
        tl.store(out_ptr + 0, 0)
    tl.store(out_ptr + 1, (not x).to(tl.int32))
    tl.store(out_ptr + 2, (x and one).to(tl.int32))
    tl.store(out_ptr + 3, (one - one or x).to(tl.int32))
    tl.store(out_ptr + 4, 1 if x else 0)
    left = x
    turns = 0
    while left:
        left = one - one
        turns += 1
    tl.store(out_ptr + 5, turns)


@triton.jit
def truth_of_block(x, out_ptr, offs, inside, BLOCK: tl.constexpr):
    """Forms 6-8 for the block x."""
    tl.store(out_ptr + offs * FORMS + 6, tl.where(x, 1, 0), mask=inside)
    tl.store(out_ptr + offs * FORMS + 7, x.to(tl.int1).to(tl.int32), mask=inside)
    tl.store(out_ptr + offs * FORMS + 8, ((x and x) or tl.zeros([BLOCK], x.dtype)).to(tl.int32), mask=inside)


@triton.jit
def truth_kernel(x_ptr, h_ptr, one_ptr, out_ptr, half_out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    one = tl.load(one_ptr)
    truth_of(tl.load(x_ptr + pid), one, out_ptr + pid * FORMS)
    truth_of(tl.load(h_ptr + pid), one.to(tl.float16), half_out_ptr + pid * FORMS)
    if pid == 0:
        offs = tl.arange(0, BLOCK)
        inside = offs < n
        truth_of_block(tl.load(x_ptr + offs, mask=inside, other=0.0), out_ptr, offs, inside, BLOCK)
        truth_of_block(tl.load(h_ptr + offs, mask=inside, other=0.0), half_out_ptr, offs, inside, BLOCK)


values = [float("nan"), -float("nan"), 0.0, -0.0, 1.0, -2.5, float("inf"), -float("inf"), 1e-30, 3e-8]
n = len(values)
x = torch.tensor(values, device=DEVICE)
h = x.half()  # 1e-30 is 0 in float16: each row's answer is Python's bool() of the float16 value
one = torch.ones(1, device=DEVICE)
out = torch.empty(n, FORMS, dtype=torch.int32, device=DEVICE)
half_out = torch.empty(n, FORMS, dtype=torch.int32, device=DEVICE)
truth_kernel[(n, )](x, h, one, out, half_out, n, BLOCK=16)

for name, numbers, got in (("float32", x.tolist(), out.tolist()), ("float16", h.tolist(), half_out.tolist())):
    for v, row in zip(numbers, got):
        t = int(bool(v))  # Python's truth: NaN is true
        want = [t, 1 - t, t, t, t, t, t, t, t]
        assert row == want, f"{name} {v}: got {row}, want {want} (forms: if, not, and, or, a if x else b, while, tl.where, .to(tl.int1), block and/or)"
print(f"NaN is true in {FORMS} forms of a float's truth, float32 and float16: match")


# A float's != is true where either side is NaN (Triton's NaN test is x != x), in float32 and float16.
@triton.jit
def not_equal_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside, other=0.0)
    tl.store(out_ptr + offs * 4 + 0, (x != x).to(tl.int32), mask=inside)
    tl.store(out_ptr + offs * 4 + 1, (x != 0.0).to(tl.int32), mask=inside)
    tl.store(out_ptr + offs * 4 + 2, (x == x).to(tl.int32), mask=inside)
    tl.store(out_ptr + offs * 4 + 3, tl.where(x != x, 1, 0), mask=inside)


for name, t in (("float32", x), ("float16", h)):
    got = torch.empty(n, 4, dtype=torch.int32, device=DEVICE)
    not_equal_kernel[(1, )](t, got, n, BLOCK=16)
    for v, row in zip(t.tolist(), got.tolist()):
        want = [int(v != v), int(v != 0.0), int(v == v), int(v != v)]
        assert row == want, f"{name} {v}: got {row}, want {want} (x != x, x != 0.0, x == x, tl.where(x != x, 1, 0))"
print("x != x and x != 0.0 are true for NaN, float32 and float16: match")
