"""torch.logical_and / logical_or / logical_xor / logical_not and their Tensor methods, as torch: every
nonzero element is true, NaN and ±inf included, 0.0 and -0.0 false; any operand dtype (float32,
float16, bool, int8, uint8, int32, int64) and broadcasting, the result a torch.bool tensor. On GPU
tensors of float, bool and 8-bit dtypes they are the comparison kernel (the test counts what is read
back from the GPU: only the results); int32 and int64 ones run on the CPU. Each is checked against Python's
own truth of the same values."""

import torch

DEVICE = torch.device("cuda")
nan, inf = float("nan"), float("inf")
# Each exactly a float16 (2**-14 its smallest normal), so the float16 operands hold the same values.
FLOATS = [nan, 0.0, -0.0, 1.0, -2.5, inf, -inf, 2.0 ** -14, -nan]
BOOLS = [True, False, False, True, True]
INTS = [0, 3, -7, 0, 1, 0, 127]

OPS = {
    "logical_and": lambda p, q: p and q,
    "logical_or": lambda p, q: p or q,
    "logical_xor": lambda p, q: p != q,
}


def on_device(values, dtype, shape):
    """A tensor whose elements are only in its GPU buffer where a kernel can copy it (clone), so an op
    that fell back to the CPU would have to read it back (counted by the test)."""
    t = torch.tensor(values, dtype=dtype, device=DEVICE).reshape(shape)
    return t.clone()


def expected(op, a_values, b_values):
    """rows: a's values down (shape [len, 1]), b's across (shape [len]): broadcast to [len(a), len(b)]."""
    return [[OPS[op](bool(p), bool(q)) for q in b_values] for p in a_values]


def check(name, got, want):
    assert got.dtype is torch.bool, f"{name}: {got.dtype}"
    assert got.tolist() == want, f"{name}: {got.tolist()} != {want}"


read = 0
cases = [
    ("float32 x float16", FLOATS, torch.float32, FLOATS, torch.float16, True),
    ("bool x float32", BOOLS, torch.bool, FLOATS, torch.float32, True),
    ("int8 x uint8", INTS, torch.int8, [v % 256 for v in INTS], torch.uint8, True),
    ("int32 x bool", INTS, torch.int32, BOOLS, torch.bool, False),
    ("int64 x float32", INTS, torch.int64, FLOATS, torch.float32, False),
]
for label, a_values, a_dtype, b_values, b_dtype, gpu in cases:
    a = on_device(a_values, a_dtype, (len(a_values), 1))
    b = on_device(b_values, b_dtype, (len(b_values), ))
    for op in OPS:
        want = expected(op, a_values, b_values)
        check(f"torch.{op}({label})", getattr(torch, op)(a, b), want)
        check(f"a.{op}(b) ({label})", getattr(a, op)(b), want)
        # The other way round: each operand read through the other's strides, the same [len(a), len(b)] result.
        check(f"torch.{op}(b, a) ({label})", getattr(torch, op)(b, a), want)
        read += 3 if gpu else 0
    want_not = [[not bool(p)] for p in a_values]
    check(f"torch.logical_not({label})", torch.logical_not(a), want_not)
    check(f"a.logical_not() ({label})", a.logical_not(), want_not)
    # Int32 / int64 ones run on the CPU: b, a kernel's copy, is read back once (then its CPU copy is kept).
    read += 2 if gpu else 1

# `&`, `|`, `^`, `~` of bool masks are the same ops.
m = on_device(BOOLS, torch.bool, (len(BOOLS), 1))
f = on_device(FLOATS, torch.float32, (len(FLOATS), ))
mask = f != 0
check("m & (f != 0)", m & mask, expected("logical_and", BOOLS, FLOATS))
check("m | (f != 0)", m | mask, expected("logical_or", BOOLS, FLOATS))
check("m ^ (f != 0)", m ^ mask, expected("logical_xor", BOOLS, FLOATS))
check("~m", ~m, [[not p] for p in BOOLS])
read += 4
# out=, as Liger writes torch's ops.
out = torch.empty((len(BOOLS), len(FLOATS)), dtype=torch.bool, device=DEVICE)
assert torch.logical_or(m, f, out=out) is out
check("torch.logical_or(m, f, out=out)", out, expected("logical_or", BOOLS, FLOATS))
read += 1
try:
    torch.logical_and(torch.ones(3, device=DEVICE), torch.ones(4, device=DEVICE))
except RuntimeError as e:
    assert "must match the size" in str(e), e
else:
    raise AssertionError("shapes [3] and [4] broadcast")
print(f"logical_and/or/xor/not as torch (NaN true, -0.0 false, 5 dtype pairs, broadcast): match; {read} read back from the GPU")
