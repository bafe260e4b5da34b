"""Idioms of Triton's own language tests (triton-lang/triton, python/test/unit/language/test_core.py): its unary,
math, cast and load tests, in kernels of ours (NOTES-tunary). test_cast bitcasts int8 to uint8 and back (was KL2003:
"a bitcast reads the same 32 bits …; tl.int8 has 8"). test_precise_math wants `tl.math.div_rn` bitwise equal to the
float64 quotient rounded to float32 (on lavapipe, whose fma isn't fused, 402 of 4096 quotients were 1 ULP off).
test_masked_load_scalar passes True or False to `mask: tl.constexpr` (was KL2003 "the mask must be a comparison").
test_full asserts `tl.static_assert(a.shape == [128])` (was KL1043 "a tuple of 1 value, not one value").
test_propagate_nan calls `getattr(tl, func)(…, propagate_nan=getattr(tl.PropagateNan, mode))` with constexpr strings
(was KL1004). test_scalar_overflow and test_invalid_pid_axis catch `triton.TritonError` (was an AttributeError)."""

import math
import struct

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def patch_kernel(template, to_replace):
    kernel = triton.JITFunction(template.fn)
    for key, value in to_replace.items():
        kernel._unsafe_update_src(kernel.src.replace(key, value))
    return kernel


# test_cast's bitcasts between int8 and uint8: the same 8 bits.
@triton.jit
def bitcast_bytes(X, Z, TO_TYPE: tl.constexpr, SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    tl.store(Z + off, x.to(Z.dtype.element_ty, bitcast=True))
    tl.store(Z + SIZE + off, tl.cast(x, TO_TYPE, bitcast=True))


values = [0, 1, 127, -128, -1, -100, 90, 55]
x8 = torch.tensor(values, dtype=torch.int8, device=DEVICE)
u8 = torch.empty(16, dtype=torch.uint8, device=DEVICE)
bitcast_bytes[(1, )](x8, u8, tl.uint8, SIZE=8)
assert u8.tolist() == [v % 256 for v in values] * 2, u8.tolist()
back = torch.empty(16, dtype=torch.int8, device=DEVICE)
bitcast_bytes[(1, )](u8, back, tl.int8, SIZE=8)
assert back.tolist() == values * 2, back.tolist()
print("int8 <-> uint8 bitcast: match")


# test_precise_math's div_rn: correctly rounded, bitwise (references: Python's double quotient rounded to float32,
# which double rounding leaves correct for a quotient of floats).
def f32(v):
    return struct.unpack('f', struct.pack('f', v))[0]


@triton.jit
def div_rn(X, Y, Q, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(Q + o, tl.math.div_rn(tl.load(X + o), tl.load(Y + o)))


xs = [f32(math.sin(i * 0.37) * 2.0 ** (i % 41 - 20)) for i in range(1024)]
ys = [f32(math.cos(i * 0.11 + 0.5) * 2.0 ** (i % 37 - 18)) for i in range(1024)]
xs[:6] = [407.7515869140625, -0.0002359504869673401, f32(2 - 2**-23), 1.0, 3.0, -6.0]
ys[:6] = [0.5994660258293152, 3.6245914998289663e-06, f32(1 - 2**-24), 3.0, 1.0, 4.0]
q = torch.empty(1024, device=DEVICE)
div_rn[(1, )](torch.tensor(xs, device=DEVICE), torch.tensor(ys, device=DEVICE), q, N=1024)
off = [i for i, (a, b, got) in enumerate(zip(xs, ys, q.tolist())) if got != f32(a / b)]
assert not off, f"{len(off)} of 1024 off, [{off[0]}] {xs[off[0]]} / {ys[off[0]]}: {q.tolist()[off[0]]} vs {f32(xs[off[0]] / ys[off[0]])}"
print("tl.math.div_rn correctly rounded: match")


# test_masked_load_scalar: a bool constexpr as the mask.
@triton.jit
def masked_scalar(in_ptr, out_ptr, size: tl.constexpr, mask: tl.constexpr, other: tl.constexpr):
    offsets = tl.arange(0, size)
    x = tl.load(in_ptr + offsets, mask=mask, other=other)
    tl.store(out_ptr + offsets, x)


for mask_val in [True, False]:
    inp = torch.full((128, ), 4.0, device=DEVICE)
    out = torch.zeros((128, ), device=DEVICE)
    masked_scalar[(1, )](inp, out, 128, mask_val, 1)
    assert out.tolist() == [4.0 if mask_val else 1.0] * 128
print("a bool constexpr mask: match")


# test_full: tl.static_assert(a.shape == SHAPE) with SHAPE a list.
def full(shape):
    @triton.jit
    def kernel_static(out):
        a = GENERATE_TEST_HERE
        tl.static_assert(a.shape == SHAPE)
        tl.static_assert(a.shape != [7, 7])
        out_ptr = out + tl.arange(0, 128)[:]
        tl.store(out_ptr, a)

    kernel = patch_kernel(kernel_static, {'GENERATE_TEST_HERE': f"tl.full({shape}, 2, tl.float32)", 'SHAPE': str(list(shape))})
    out = torch.zeros(128, device=DEVICE)
    kernel[(1, )](out)
    assert out.tolist() == [2.0] * 128


for shape in [(), (1, ), (128, )]:
    full(shape)
print("shapes compared with lists: match")


# test_propagate_nan: getattr on tl and tl.PropagateNan with constexpr strings.
@triton.jit
def nan_kernel(A, B, C, propagate_nan: tl.constexpr, func: tl.constexpr):
    if func == 'clamp':
        tl.store(C, getattr(tl, func)(tl.load(A), -tl.load(B), tl.load(B), propagate_nan=getattr(tl.PropagateNan, propagate_nan)))
    else:
        tl.store(C, getattr(tl, func)(tl.load(A), tl.load(B), propagate_nan=getattr(tl.PropagateNan, propagate_nan)))


for func in ['minimum', 'maximum', 'clamp']:
    for mode in ['NONE', 'ALL']:
        A = torch.tensor([float('nan')], device=DEVICE)
        B = torch.tensor([0.5], device=DEVICE)
        C = torch.zeros(1, device=DEVICE)
        nan_kernel[(1, )](A, B, C, mode, func)
        assert math.isnan(C.item()) == (mode == 'ALL'), (func, mode, C.item())
A = torch.tensor([2.0], device=DEVICE)
nan_kernel[(1, )](A, torch.tensor([0.5], device=DEVICE), C, 'NONE', 'clamp')
assert C.item() == 0.5
print("getattr(tl, func), getattr(tl.PropagateNan, mode): match")


# test_scalar_overflow / test_invalid_pid_axis: the refusal is a triton.TritonError.
@triton.jit
def invalid_pid(dst):
    pid = tl.program_id(20)


try:
    invalid_pid[(1, )](torch.empty(1, device=DEVICE))
    raise AssertionError("program_id(20) compiled")
except triton.TritonError as e:
    assert "KL2012" in str(e)
print("triton.TritonError: caught")


# test_load_scalar_with_mask reads `x.data`; a kernel's float("-nan") (Python's float() takes a sign before nan).
@triton.jit
def signed_nan(dst, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(dst + offs, tl.where(offs % 2 == 0, float("-nan"), float(" +inf ")))


out = torch.zeros(8, device=DEVICE)
signed_nan[(1, )](out.data, 8)
assert all(math.isnan(v) for v in out.tolist()[0::2]) and out.tolist()[1::2] == [math.inf] * 4, out.tolist()
print("float('-nan') in a kernel, Tensor.data: match")
