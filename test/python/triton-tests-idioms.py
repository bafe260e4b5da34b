"""Idioms of Triton's own language tests (triton-lang/triton, python/test/unit/language/test_core.py), in kernels of
ours. Each test defines its kernel inside the test function and patches a placeholder in its text
(`patch_kernel`: `triton.JITFunction(template.fn)`, `kernel._unsafe_update_src(kernel.src.replace(…))`): a kernel
defined inside a function was KL1104 ("no @triton.jit function named 'kernel'", at line 1), and
`_unsafe_update_src` an AttributeError. Two kernels of one name in two functions are two kernels. And
test_compare_op's int8 with uint8: Triton's integer promotion makes both uint8 (C's: of one width the unsigned
wins), so -17 > 238 is True (239 > 238); it compared the int8's -17. test_random.py's test_rand_limits calls
`tl.random.uint_to_uniform_float(x)` (was KL1040 "got 2 arguments": `tl.random` read as a receiver) and test_seed_is_int
catches `triton.compiler.errors.CompilationError` (was an AttributeError). Sizes off the blocks: 100 of 128 lanes."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def patch_kernel(template, to_replace):
    kernel = triton.JITFunction(template.fn)
    for key, value in to_replace.items():
        kernel._unsafe_update_src(kernel.src.replace(key, value))
    return kernel


def run_unary(expr, x):
    @triton.jit
    def kernel(Z, X, N, SIZE: tl.constexpr):
        off = tl.arange(0, SIZE)
        x = tl.load(X + off, mask=off < N)
        z = GENERATE_TEST_HERE
        tl.store(Z + off, z, mask=off < N)

    kernel = patch_kernel(kernel, {'GENERATE_TEST_HERE': expr})
    z = torch.empty_like(x)
    kernel[(1, )](z, x, x.numel(), SIZE=128)
    return z


def run_plain(x):
    @triton.jit
    def kernel(Z, X, N, SIZE: tl.constexpr):  # the same name as run_unary's, another kernel
        off = tl.arange(0, SIZE)
        x = tl.load(X + off, mask=off < N)
        tl.store(Z + off, x * 3, mask=off < N)

    z = torch.empty_like(x)
    kernel[(1, )](z, x, x.numel(), SIZE=128)
    return z


def run_compare(x, y):
    @triton.jit
    def compare(Z, X, Y, N, SIZE: tl.constexpr):
        off = tl.arange(0, SIZE)
        x = tl.load(X + off, mask=off < N)
        y = tl.load(Y + off, mask=off < N)
        y0 = tl.load(Y)  # a scalar beside the block: uint8 too
        tl.store(Z + off, (x > y).to(tl.int32) + 2 * (x < y0).to(tl.int32) + 4 * (y == x).to(tl.int32), mask=off < N)

    z = torch.empty(x.numel(), dtype=torch.int32, device=DEVICE)
    compare[(1, )](z, x, y, x.numel(), SIZE=128)
    return z


x = torch.randn(100, device=DEVICE)
torch.testing.assert_close(run_unary('x * 2 + 1', x), x * 2 + 1)
torch.testing.assert_close(run_unary('x - 5', x), x - 5)
torch.testing.assert_close(run_plain(x), x * 3)
print("kernels defined inside functions, patched with _unsafe_update_src, two of one name: match")

xs = torch.randint(-128, 128, (100, ), dtype=torch.int8, device=DEVICE)
ys = torch.randint(0, 256, (100, ), dtype=torch.int32, device=DEVICE).to(torch.uint8)
xs[:4] = torch.tensor([-17, 5, -1, 0], dtype=torch.int8)
ys[:4] = torch.tensor([238, 5, 255, 0], dtype=torch.int32).to(torch.uint8)
xu, yu, y0 = [v % 256 for v in xs.tolist()], ys.tolist(), ys.tolist()[0]
expected = [int(a > b) + 2 * int(a < y0) + 4 * int(a == b) for a, b in zip(xu, yu)]
assert run_compare(xs, ys).tolist() == expected
print("int8 with uint8 compares as uint8: match")


@triton.jit
def uniform_limits(input, output, n: tl.constexpr):
    idx = tl.arange(0, n)
    x = tl.load(input + idx)
    y = tl.random.uint_to_uniform_float(x)
    tl.store(output + idx, y)


words = torch.tensor([-2**31, 2**31 - 1, 0, 12345], dtype=torch.int32, device=DEVICE)
uniform = torch.empty(4, device=DEVICE)
uniform_limits[(1, )](words, uniform, 4)
top = 1.0 - torch.finfo(torch.float32).eps / 2  # the largest f32 below 1
assert uniform.tolist() == [top, top, 0.0, 12345 * 4.6566127342e-10] or abs(uniform[3].item() - 12345 * 4.6566127342e-10) < 1e-12
assert uniform[0].item() == uniform[1].item() and 1.0 - torch.finfo(torch.float32).eps <= uniform[0].item() < 1.0


@triton.jit
def seeded(X, seed):
    offset = tl.arange(0, 1)
    tl.store(X + offset, tl.rand(seed, offset))


try:
    seeded[(1, )](uniform, 2.3)
    raise AssertionError("a float seed compiled")
except triton.compiler.errors.CompilationError as e:
    assert "KL2003" in str(e)
print("tl.random.uint_to_uniform_float's limits, triton.compiler.errors.CompilationError: match")


# test_rand_limits' int64 limits: past 32 bits, refused as an int32 past them is, not kept as the low word (it read [0, 0]).
try:
    torch.tensor([-2**63, 2**63 - 1], dtype=torch.int64)
    raise AssertionError("an int64 past 32 bits was kept")
except RuntimeError as e:
    assert "without overflow" in str(e) and "32 bits" in str(e), str(e)
assert torch.tensor([-2**31, 2**31 - 1], dtype=torch.int64).tolist() == [-2**31, 2**31 - 1]
print("torch.int64 past 32 bits: refused")
