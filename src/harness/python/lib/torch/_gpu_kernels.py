# The kernels torch's element-wise ops, copies and reductions run as on a GPU tensor (_on_gpu.py
# launches them). Written as a Triton user would: each element's position in up to 4 dimensions
# (the shape padded in front with 1s) is taken apart from its flat index, and each operand is read
# through its own strides, 0 along a broadcast dimension, so views (x.T, x[:, None], expand) are
# read in place. A FLAT operand (contiguous, the result's shape) is read at the flat index. Every
# value is computed in float32 and rounded once to the result's dtype, as torch does on CUDA for
# float16. Programs are numbered over two grid axes (WebGPU allows 65535 a dimension). A torch.bool,
# int8 or uint8 operand is read through its own 1-byte elements (a Ptr to int1 / int8 / uint8), and
# comparisons and torch.where's condition are bool tensors, stored a byte per element.

import triton
import triton.language as tl


@triton.jit
def _flat_index(BLOCK: tl.constexpr):
    pid = tl.program_id(1) * tl.num_programs(0) + tl.program_id(0)
    return pid * BLOCK + tl.arange(0, BLOCK)


@triton.jit
def _strided(offs, s1, s2, s3, t0, t1, t2, t3):
    """The element offset of flat index `offs` (shape [*, s1, s2, s3]) along strides t0..t3."""
    i3 = offs % s3
    rest = offs // s3
    i2 = rest % s2
    rest = rest // s2
    i1 = rest % s1
    i0 = rest // s1
    return i0 * t0 + i1 * t1 + i2 * t2 + i3 * t3


@triton.jit
def _position(offs, off, s1, s2, s3, t0, t1, t2, t3, FLAT: tl.constexpr):
    """An operand's element offset at flat index `offs`: `off + offs` where it is FLAT (contiguous, the
    result's shape), else through its strides t0..t3."""
    if FLAT:
        at = off + offs
    else:
        at = off + _strided(offs, s1, s2, s3, t0, t1, t2, t3)
    return at


@triton.jit
def _is_nan(x):
    # By the bits: a compiler may assume that x != x never holds for floats (WGSL allows it).
    bits = x.to(tl.int32, bitcast=True)
    return (bits & 0x7FFFFFFF) > 0x7F800000


@triton.jit
def _combine(a, b, op):
    if op == 0:
        out = a + b
    elif op == 1:
        out = a - b
    elif op == 2:
        out = a * b
    elif op == 3:
        out = a / b
    elif op == 4:
        # torch.maximum: a NaN on either side gives NaN.
        out = tl.where(_is_nan(a) | (a > b), a, b)
    else:
        out = tl.where(_is_nan(a) | (a < b), a, b)
    return out


@triton.jit
def _relation(a, b, op):
    # op 6..11: eq, ne, lt, le, gt, ge. A NaN on either side compares unequal to everything (IEEE,
    # as torch), tested by the bits since a compiler may assume floats are never NaN. 12..14:
    # logical and, or, xor (nonzero is true).
    either_nan = _is_nan(a) | _is_nan(b)
    if op == 12:
        out = (a != 0.0) & (b != 0.0)
    elif op == 13:
        out = (a != 0.0) | (b != 0.0)
    elif op == 14:
        out = (a != 0.0) ^ (b != 0.0)
    elif op == 6:
        out = (a == b) & ~either_nan
    elif op == 7:
        out = (a != b) | either_nan
    elif op == 8:
        out = (a < b) & ~either_nan
    elif op == 9:
        out = (a <= b) & ~either_nan
    elif op == 10:
        out = (a > b) & ~either_nan
    else:
        out = (a >= b) & ~either_nan
    return out


@triton.jit
def _binary(a_ptr, b_ptr, out_ptr, n, s1, s2, s3, a_off, a0, a1, a2, a3, b_off, b0, b1, b2, b3,
            op, A_FLAT: tl.constexpr, B_FLAT: tl.constexpr, COMPARE: tl.constexpr, BLOCK: tl.constexpr):
    offs = _flat_index(BLOCK)
    mask = offs < n
    a_at = _position(offs, a_off, s1, s2, s3, a0, a1, a2, a3, A_FLAT)
    b_at = _position(offs, b_off, s1, s2, s3, b0, b1, b2, b3, B_FLAT)
    a = tl.load(a_ptr + a_at, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + b_at, mask=mask, other=0.0).to(tl.float32)
    if COMPARE:
        tl.store(out_ptr + offs, _relation(a, b, op), mask=mask)
    else:
        tl.store(out_ptr + offs, _combine(a, b, op).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _binary_scalar(x_ptr, out_ptr, value, n, s1, s2, s3, x_off, x0, x1, x2, x3,
                   op, SCALAR_FIRST: tl.constexpr, FLAT: tl.constexpr, COMPARE: tl.constexpr, BLOCK: tl.constexpr):
    offs = _flat_index(BLOCK)
    mask = offs < n
    at = _position(offs, x_off, s1, s2, s3, x0, x1, x2, x3, FLAT)
    x = tl.load(x_ptr + at, mask=mask, other=0.0).to(tl.float32)
    if COMPARE:
        scalar = tl.zeros([BLOCK], dtype=tl.float32) + value
        if SCALAR_FIRST:
            tl.store(out_ptr + offs, _relation(scalar, x, op), mask=mask)
        else:
            tl.store(out_ptr + offs, _relation(x, scalar, op), mask=mask)
    else:
        if SCALAR_FIRST:
            out = _combine(value, x, op)
        else:
            out = _combine(x, value, op)
        tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _unary(x_ptr, out_ptr, n, s1, s2, s3, x_off, x0, x1, x2, x3,
           op, FLAT: tl.constexpr, BLOCK: tl.constexpr):
    # op 0 copies (a cast where out's dtype differs: .to, .float, .half, .contiguous, .clone).
    offs = _flat_index(BLOCK)
    mask = offs < n
    at = _position(offs, x_off, s1, s2, s3, x0, x1, x2, x3, FLAT)
    x = tl.load(x_ptr + at, mask=mask, other=0.0).to(tl.float32)
    if op == 0:
        out = x
    elif op == 1:
        out = -x
    elif op == 2:
        out = tl.abs(x)
    elif op == 3:
        out = tl.exp(x)
    elif op == 4:
        out = tl.exp2(x)
    elif op == 5:
        out = tl.log(x)
    elif op == 6:
        out = tl.log2(x)
    elif op == 7:
        out = tl.sqrt(x)
    elif op == 8:
        out = tl.rsqrt(x)
    elif op == 9:
        out = tl.sigmoid(x)
    elif op == 10:
        # A NaN stays NaN (tl.maximum may drop it).
        out = tl.where(x < 0.0, 0.0, x)
    elif op == 11:
        out = x * x
    elif op == 12:
        out = 1.0 / x
    elif op == 13:
        out = tl.sin(x)
    else:
        out = tl.cos(x)
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _where(c_ptr, a_ptr, b_ptr, out_ptr, a_value, b_value, n, s1, s2, s3, c_off, c0, c1, c2, c3,
           a_off, a0, a1, a2, a3, b_off, b0, b1, b2, b3, A_SCALAR: tl.constexpr, B_SCALAR: tl.constexpr,
           BLOCK: tl.constexpr):
    # torch.where(c, a, b): c a bool tensor; a and b tensors (of any readable dtype) or numbers
    # (A_SCALAR: a_ptr is None, a_value is a).
    offs = _flat_index(BLOCK)
    mask = offs < n
    c = tl.load(c_ptr + c_off + _strided(offs, s1, s2, s3, c0, c1, c2, c3), mask=mask, other=False)
    if A_SCALAR:
        a = tl.zeros([BLOCK], dtype=tl.float32) + a_value
    else:
        a = tl.load(a_ptr + a_off + _strided(offs, s1, s2, s3, a0, a1, a2, a3), mask=mask, other=0.0).to(tl.float32)
    if B_SCALAR:
        b = tl.zeros([BLOCK], dtype=tl.float32) + b_value
    else:
        b = tl.load(b_ptr + b_off + _strided(offs, s1, s2, s3, b0, b1, b2, b3), mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, tl.where(c, a, b).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _triangle(x_ptr, out_ptr, n, s1, s2, s3, x_off, x0, x1, x2, x3, diagonal, UPPER: tl.constexpr, FLAT: tl.constexpr,
              BLOCK: tl.constexpr):
    # torch.triu (UPPER) / tril: each matrix (the last two dims, s2 rows of s3) keeps the elements on
    # and above (below) its `diagonal`-th diagonal, column - row >= (<=) diagonal, and the rest are 0.
    offs = _flat_index(BLOCK)
    mask = offs < n
    at = _position(offs, x_off, s1, s2, s3, x0, x1, x2, x3, FLAT)
    x = tl.load(x_ptr + at, mask=mask, other=0.0).to(tl.float32)
    col = offs % s3
    row = (offs // s3) % s2
    if UPPER:
        keep = col - row >= diagonal
    else:
        keep = col - row <= diagonal
    tl.store(out_ptr + offs, tl.where(keep, x, 0.0).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _assign(src_ptr, dst_ptr, n, s1, s2, s3, src_off, r0, r1, r2, r3, dst_off, d0, d1, d2, d3,
            BLOCK: tl.constexpr):
    # dst[...] = src, both through their strides (a view of a tensor written in place: x[:, 0] = y, x += y).
    offs = _flat_index(BLOCK)
    mask = offs < n
    x = tl.load(src_ptr + src_off + _strided(offs, s1, s2, s3, r0, r1, r2, r3), mask=mask, other=0.0)
    tl.store(dst_ptr + dst_off + _strided(offs, s1, s2, s3, d0, d1, d2, d3), x.to(dst_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _fill(dst_ptr, value, n, s1, s2, s3, dst_off, d0, d1, d2, d3, FLAT: tl.constexpr, BLOCK: tl.constexpr):
    offs = _flat_index(BLOCK)
    mask = offs < n
    at = _position(offs, dst_off, s1, s2, s3, d0, d1, d2, d3, FLAT)
    tl.store(dst_ptr + at, (tl.zeros([BLOCK], dtype=tl.float32) + value).to(dst_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _reduce_rows(x_ptr, out_ptr, n, row_len, scale, OP: tl.constexpr, BLOCK: tl.constexpr):
    # One row of row_len elements per program (the last may stop at n), in float32: OP 0 the sum
    # times `scale` (a mean: 1 / count), 1 the max, 2 the min; a NaN anywhere in the row is the
    # max's and the min's answer, as torch's.
    row = tl.program_id(1) * tl.num_programs(0) + tl.program_id(0)
    start = row * row_len
    total = tl.zeros([BLOCK], dtype=tl.float32)
    high = tl.full([BLOCK], float("-inf"), tl.float32)
    low = tl.full([BLOCK], float("inf"), tl.float32)
    nans = tl.zeros([BLOCK], dtype=tl.int32)
    for s in range(0, row_len, BLOCK):
        cols = s + tl.arange(0, BLOCK)
        mask = (cols < row_len) & (start + cols < n)
        x = tl.load(x_ptr + start + cols, mask=mask, other=0.0).to(tl.float32)
        total += x
        high = tl.where(mask & (x > high), x, high)
        low = tl.where(mask & (x < low), x, low)
        nans += _is_nan(x).to(tl.int32)
    if OP == 0:
        out = tl.sum(total, axis=0) * scale
    elif OP == 1:
        out = tl.max(high, axis=0)
    else:
        out = tl.min(low, axis=0)
    if OP != 0:
        out = tl.where(tl.sum(nans, axis=0) > 0, float("nan"), out)
    tl.store(out_ptr + row, out.to(out_ptr.dtype.element_ty))


@triton.jit
def _random(out_ptr, n, seed, NORMAL: tl.constexpr, HALF: tl.constexpr, BLOCK: tl.constexpr):
    # torch.rand / randn on the GPU device: Philox (tl.rand, tl.randn), one number per element's index.
    offs = _flat_index(BLOCK)
    mask = offs < n
    if NORMAL:
        x = tl.randn(seed, offs)
    else:
        x = tl.rand(seed, offs)
        if HALF:
            # float16's nearest to a draw just under 1 is 1: torch.rand stays below 1.
            x = tl.minimum(x, 0.99951171875)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty), mask=mask)
