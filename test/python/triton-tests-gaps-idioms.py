"""Idioms of Triton's own language tests (triton-lang/triton, python/test/unit/language/test_core.py and
test_standard.py) that Kernel Lab refused or accepted wrongly (bench/NOTES.md §88's "Left"), in kernels of ours.

- f16 atomics: test_atomic_rmw, test_tensor_atomic_rmw, test_tensor_atomic_add_non_exclusive_offset and
  test_tensor_atomic_add_access_patterns run tl.atomic_add on float16 (KL2003: WGSL has no 16-bit atomics). Triton has
  atomic_add and atomic_cas on fp16 (semantic.py) and refuses max/min/xchg/and/or/xor ("atomic_max does not support
  fp16"). Here: programs racing on both halves of shared words, masked lanes, sentinels beside the window, the old
  values returned, the sum rounded to f16 once, the cas's one winner per slot and its comparison of the bits.
- tl.topk(x, k) (Triton 3.3's, test_standard.py's test_sort): KL1005.
- A tuple constexpr passed by position (test_reshape: `kernel[(1, )](z, x, out_format)` into `out_tuple:
  tl.constexpr`): KL1003 "strings aren't supported" (the tuple crossed as its str()).
- tl.expand_dims(scalar, 1) and the duplicate axes (0, 0), (0, -3) (test_expand_dims_error_cases): accepted.
- A positional None (`tl.sum(x, None)`, `tl.atomic_add(p, v, None, SEM)`): KL1101 "None as a value"."""

import math
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


# --- f16 atomics ---------------------------------------------------------------------------------------------------

@triton.jit
def rmw_kernel(X, Z):
    # test_atomic_rmw's kernel: every program adds its element to the one Z.
    pid = tl.program_id(0)
    x = tl.load(X + pid)
    old = tl.atomic_add(Z, x)
    tl.static_assert(old.dtype == x.dtype)


for xs in ([1.0, 2.0, 4.0, 8.0, 16.0], [-1.0, -2.0, -4.0, -8.0, -16.0], [1.0, -17.0, 4.0, 8.0, 16.0]):
    x = torch.tensor(xs, dtype=torch.float16, device=DEVICE)
    z = torch.zeros(1, dtype=torch.float16, device=DEVICE)
    rmw_kernel[(5, )](x, z)
    assert z.item() == sum(xs), (xs, z.item())


@triton.jit
def window_add(Z, OLD, n, BLOCK: tl.constexpr):
    # Programs add 1 + pid / 8 (exact in f16, any order) to windows starting at 1 + pid % 3: neighbouring programs
    # update the two halves of one word at once. Lanes at or past n - pid are masked off.
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < n - pid
    val = tl.full([BLOCK], 1.0, tl.float16) + pid.to(tl.float16) / 8
    old = tl.atomic_add(Z + 1 + pid % 3 + offs, val, mask=inside)
    tl.store(OLD + pid * BLOCK + offs, old, mask=offs < BLOCK)


P, BLOCK = 7, 32
n = BLOCK - 3
size = 1 + 2 + BLOCK + 1
z = torch.zeros(size, dtype=torch.float16)
z[0] = 7.5
z[size - 1] = -2.25
z = z.to(DEVICE)
old = torch.full((P, BLOCK), float("nan"), dtype=torch.float16).to(DEVICE)
window_add[(P, )](z, old, n, BLOCK=BLOCK)
want = [0.0] * size
want[0], want[size - 1] = 7.5, -2.25
for p in range(P):
    for j in range(BLOCK):
        if j < n - p:
            want[1 + p % 3 + j] += 1 + p / 8
got = z.float().cpu().tolist()
assert got == want, [(i, a, b) for i, (a, b) in enumerate(zip(got, want)) if a != b]
olds = old.float().cpu().tolist()
assert all(olds[p][j] == 0.0 for p in range(P) for j in range(BLOCK) if j >= n - p), "masked lanes return 0"
assert all(0.0 <= olds[p][j] < want[1 + p % 3 + j] for p in range(P) for j in range(n - p)), "old values are partial sums"

# One program (no race): the old values are the contents before, the sum rounded to f16 once (2048 + 1 is 2048,
# ties to even; 2048 + 3 is 2052), as Triton's atom.add.f16.
one = torch.tensor([2048.0, 2048.0, 0.5, -0.0], dtype=torch.float16, device=DEVICE)
old1 = torch.full((4, ), float("nan"), dtype=torch.float16, device=DEVICE)


@triton.jit
def add_each(Z, V, OLD, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(OLD + offs, tl.atomic_add(Z + offs, tl.load(V + offs)))


add_each[(1, )](one, torch.tensor([1.0, 3.0, 0.25, -0.0], dtype=torch.float16, device=DEVICE), old1, N=4)
ol = one.float().cpu().tolist()
assert ol == [2048.0, 2052.0, 0.75, 0.0] and math.copysign(1.0, ol[3]) == -1.0, one
assert old1.float().cpu().tolist() == [2048.0, 2048.0, 0.5, 0.0], old1
print("tl.atomic_add of f16: 5 programs on one element; 7 programs on shared words, masked lanes, old values; rounding: match")


@triton.jit
def claim_kernel(S, OLD, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mark = tl.full([BLOCK], 0.0, tl.float16) + (pid + 1).to(tl.float16)
    old = tl.atomic_cas(S + 1 + pid % 3 + offs, tl.zeros([BLOCK], tl.float16), mark)
    tl.store(OLD + pid * BLOCK + offs, old, mask=offs < BLOCK)


# -0.0 at 5 is not +0.0 to the cas: nobody claims it.
s = torch.tensor([7.5] + [0.0] * 4 + [-0.0] + [0.0] * (size - 7) + [-2.25], dtype=torch.float16).to(DEVICE)
old = torch.full((P, BLOCK), float("nan"), dtype=torch.float16).to(DEVICE)
claim_kernel[(P, )](s, old, BLOCK=BLOCK)
sf, of = s.float().cpu().tolist(), old.float().cpu().tolist()
assert sf[0] == 7.5 and sf[size - 1] == -2.25 and sf[5] == 0.0 and math.copysign(1.0, sf[5]) == -1.0, sf
for j in range(1, size - 1):
    if j == 5:
        continue
    contenders = [p for p in range(P) if 1 + p % 3 <= j < 1 + p % 3 + BLOCK]
    seen = {p: of[p][j - 1 - p % 3] for p in contenders}
    winners = [p for p in contenders if seen[p] == 0.0]
    assert len(winners) == 1 and sf[j] == winners[0] + 1, (j, seen, sf[j])
    assert all(seen[p] == winners[0] + 1 for p in contenders if p != winners[0]), (j, seen)
print("tl.atomic_cas of f16: one winner per slot, the other halves kept, -0.0 not +0.0: match")


@triton.jit
def max_f16(Z, V):
    tl.atomic_max(Z, V)


try:
    max_f16[(1, )](z, 1.0)
    raise AssertionError("tl.atomic_max of f16 compiled")
except triton.TritonError as e:
    assert "KL2003" in str(e) and "atomic_max does not support fp16" in str(e), str(e)
print("tl.atomic_max of f16 refused, as Triton refuses it: match")


# --- tl.topk -------------------------------------------------------------------------------------------------------

@triton.jit
def sort_kernel(X, stride_xm, Z, stride_zm, M: tl.constexpr, N: tl.constexpr, k: tl.constexpr,
                descending: tl.constexpr):
    # test_standard.py's test_sort, as published.
    offs_m = tl.arange(0, M)
    offs_x_n = tl.arange(0, N)
    offs_z_n = offs_x_n if k is None else tl.arange(0, k)
    offs_x = offs_m[:, None] * stride_xm + offs_x_n[None, :]
    x = tl.load(X + offs_x)
    if k is None:
        z = tl.sort(x, descending=descending)
    else:
        z = tl.topk(x, k)
    offs_z = offs_m[:, None] * stride_zm + offs_z_n[None, :]
    tl.store(Z + offs_z, z)


torch.manual_seed(0)
for M, N in [[1, 128], [8, 64], [16, 16]]:
    for dtype in [torch.int32, torch.float16, torch.float32, torch.bfloat16]:
        x = (torch.randn(M, N) * 100).to(dtype).to(DEVICE)
        z = torch.empty((M, 8), dtype=dtype, device=DEVICE)
        sort_kernel[(1, )](x, x.stride(0), z, z.stride(0), M, N, 8, False, num_warps=8)
        y = torch.topk(x.float(), k=8).values.to(dtype)
        assert torch.equal(y, z), (M, N, dtype, y, z)


@triton.jit
def topk_1d(X, Z, N: tl.constexpr, K: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Z + tl.arange(0, K), tl.topk(x, k=K, dim=None))


x = torch.tensor([3.0, -1.0, 7.0, 7.0, 0.5, -8.0, 2.0, 6.0], device=DEVICE)
z = torch.empty(4, device=DEVICE)
topk_1d[(1, )](x, z, 8, 4)
assert z.cpu().tolist() == [7.0, 7.0, 6.0, 3.0], z
print("tl.topk (test_sort's k=8 on int32, f16, f32, bf16; k=, dim=None): match")


# --- a tuple constexpr, tl.reshape's forms ---------------------------------------------------------------------------

@triton.jit
def reshape_kernel(Z, X, out_tuple: tl.constexpr):
    x = tl.load(X + tl.arange(0, 32))
    z = tl.reshape(x, out_tuple)
    tl.store(Z + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :], z)


@triton.jit
def reshape_forms(Z, X, A: tl.constexpr, B: tl.constexpr):
    x = tl.load(X + tl.arange(0, A * B))
    z = tl.reshape(x, (A, B)) + tl.reshape(x, A, B) + tl.reshape(x, [A, B]) + x.reshape((A, B)) + x.reshape(A, B)
    tl.store(Z + tl.arange(0, A)[:, None] * B + tl.arange(0, B)[None, :], z)


x = torch.arange(32, dtype=torch.float32, device=DEVICE)
out_format = (4, 8)
for call in (lambda z: reshape_kernel[(1, )](z, x, out_format), lambda z: reshape_kernel[(1, )](z, x, out_tuple=[4, 8])):
    z = torch.full((32, ), float("nan"), device=DEVICE)
    call(z)
    assert torch.equal(z, x), z
z = torch.empty(32, device=DEVICE)
reshape_forms[(1, )](z, x, 4, 8)
assert torch.equal(z, x * 5), z
print("tl.reshape(x, out_tuple) of a tuple constexpr by position and keyword; (a, b), a, b, [a, b], x.reshape: match")


# --- tl.expand_dims's errors -----------------------------------------------------------------------------------------

@triton.jit
def expand_scalar(X):
    scalar = tl.sum(tl.load(X + tl.arange(0, 4)))
    t = tl.expand_dims(scalar, 1)


@triton.jit
def expand_twice(X, A: tl.constexpr, B: tl.constexpr):
    t = tl.expand_dims(tl.load(X + tl.arange(0, 4)), (A, B))


@triton.jit
def index_scalar(X, Z):
    # Indexing a scalar gives it one axis, as Triton's semantic.expand_dims does: [1].
    s = tl.sum(tl.load(X + tl.arange(0, 4)))
    tl.store(Z + tl.arange(0, 1), s[:, None].reshape(1) + tl.expand_dims(s, 0) + tl.expand_dims(s, -1))


x = torch.arange(4, dtype=torch.float32, device=DEVICE)
for launch, what in ((lambda: expand_scalar[(1, )](x), "axis 1 is out of range"),
                     (lambda: expand_twice[(1, )](x, 0, 0), "named twice"), (lambda: expand_twice[(1, )](x, 0, -3), "named twice")):
    try:
        launch()
        raise AssertionError(f"compiled: {what}")
    except triton.TritonError as e:
        assert "KL2012" in str(e) and what in str(e), str(e)
z = torch.zeros(1, device=DEVICE)
index_scalar[(1, )](x, z)
assert z.item() == 18.0, z
print("tl.expand_dims of a scalar past axis 0, axes (0, 0) and (0, -3) refused; s[:, None] of a scalar: match")


# --- a positional None ---------------------------------------------------------------------------------------------

@triton.jit
def none_kernel(X, Y, Z, S: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]
    x = tl.load(X + offs, None)
    tl.store(Z + offs, tl.sort(x, None, True))
    s = tl.sum(x, None)
    tl.store(Y, s)
    tl.store(Y + 1, tl.max(x, None, False, True, False))
    tl.atomic_add(Y + 2, s, None, S)
    tl.atomic_add(Y + 3 + tl.arange(0, 4), 1.0, None, "relaxed", None)


x = torch.randn(32, device=DEVICE)
y = torch.zeros(8, device=DEVICE)
z = torch.empty(32, device=DEVICE)
none_kernel[(1, )](x, y, z, "acq_rel")
yl = y.cpu().tolist()
assert abs(yl[0] - x.sum().item()) < 1e-4 and yl[1] == x.max().item() and yl[2] == yl[0] and yl[3:7] == [1.0] * 4, yl
assert torch.equal(z, torch.sort(x.reshape(4, 8), descending=True)[0].reshape(32)), z
print("a positional None is the default (tl.sum, tl.max, tl.sort, tl.atomic_add's mask): match")


# --- tl.max / tl.min of 16-bit floats give f32 (standard.py), so what follows them computes in f32 -------------------

@triton.jit
def max_dtype_kernel(X, Y, V_DTYPE: tl.constexpr):
    x = tl.load(X + tl.arange(0, 8))
    m = tl.max(x, 0)
    v, i = tl.min(x, 0, return_indices=True)
    tl.static_assert(m.dtype == tl.float32)
    tl.static_assert(v.dtype == V_DTYPE)  # with return_indices only bf16 is promoted
    tl.store(Y + tl.arange(0, 8), x - m)


for dt, v_dtype in [(torch.float16, tl.float16), (torch.bfloat16, tl.float32)]:
    x = (torch.randn(8, device=DEVICE) * 1000).to(dt)
    y = torch.empty(8, device=DEVICE)
    max_dtype_kernel[(1, )](x, y, v_dtype)
    assert torch.equal(y, x.float() - x.float().max()), (dt, y)
# Tensor.item() keeps a -0.0 (it came through as the int 0, as a JS whole number reaches Python).
assert math.copysign(1.0, torch.tensor([1.0, -0.0], device=DEVICE)[1].item()) == -1.0
print("tl.max of f16 and bf16 is f32, x - max computed in f32: match")
