# torch's ops on tensors on the GPU device run as GPU kernels, as torch's do on CUDA: the kernels
# are Kernel Lab kernels (_gpu_kernels.py, _gpu_nn.py), launched like any script's, and the result
# is a new tensor whose elements exist only in its GPU buffer until the script reads them
# (_resident.py). Each function here gives the result, or None where the op has no kernel for
# these operands (an integer or bool dtype, more than 4 dimensions, --cpu): the caller then runs the
# exact CPU op, its operands brought back from the GPU first (never a wrong answer). Operands may
# be float, bool, int8 or uint8 tensors (read as float32); results are float, or bool for the
# comparisons (and a copy to bool), stored a byte per element as torch stores them. Inside
# triton.testing.do_bench these same launches are what is timed; an op that falls back to the CPU
# there is named once as left out of the timing.

import _kernel_lab_ops as _js
import _kernel_lab_state as _state
import triton

from . import _dtypes as D
from . import _gpu_kernels as K
from . import _gpu_nn as NN

BINARY = {"add": 0, "sub": 1, "mul": 2, "div": 3, "maximum": 4, "minimum": 5}
COMPARE = {"eq": 6, "ne": 7, "lt": 8, "le": 9, "gt": 10, "ge": 11, "logical_and": 12, "logical_or": 13, "logical_xor": 14}
UNARY = {"copy": 0, "neg": 1, "abs": 2, "exp": 3, "exp2": 4, "log": 5, "log2": 6, "sqrt": 7, "rsqrt": 8,
         "sigmoid": 9, "relu": 10, "square": 11, "reciprocal": 12, "sin": 13, "cos": 14}
REDUCE = {"sum": 0, "mean": 0, "max": 1, "min": 2}
_FLOATS = (D.float32, D.float16)
# What the kernels read (as float32, exactly: the 8-bit ones are at most 8 bits).
_READABLE = _FLOATS + (D.bool_, D.int8, D.uint8)
_BLOCK = 1024
_MAX_GRID = 65535
_said = set()


def left_out(name):
    """An op on GPU tensors computed on the CPU inside do_bench's timed call: said once."""
    if _state.recording and not _state.cpu and name not in _said:
        _said.add(name)
        print(f"[kernel-lab] do_bench: {name} has no GPU kernel in Kernel Lab's torch; it is left out of the GPU timing")


def _on_gpu(*tensors):
    from ._tensor import Tensor
    return not _state.cpu and all(isinstance(t, Tensor) and t.device.type == "cuda" and t.dtype in _READABLE for t in tensors)


def fresh(dtype, shape):
    """A GPU tensor a kernel is about to write every element of: its buffer is made, not uploaded."""
    from ._tensor import Tensor, _numel
    t = Tensor._make(_js.allocate(dtype.name, _numel(shape)), dtype, shape, device=D.device("cuda"))
    t._data._buffer_id()
    t._data.gpu = True
    return t


def _base(t):
    """The whole storage as a flat tensor (what a kernel binds: a view is read at its offset and strides)."""
    from ._tensor import Tensor
    return Tensor._make(t._data, t.dtype, (len(t._data.js), ), device=t.device)


def _bytes(t):
    """_base, a bool tensor read as the uint8 bytes it is: a comparison then sees torch.empty's poison byte
    (0xad) as neither True nor False, as the CPU's does, so a bool output a kernel left unwritten mismatches."""
    from ._tensor import Tensor
    return Tensor._make(t._data, D.uint8, (len(t._data.js), ), device=t.device) if t.dtype is D.bool_ else _base(t)


def _padded(shape):
    return [1] * (4 - len(shape)) + list(shape)


def _strides(t, shape):
    """t's offset and strides over `shape` (t broadcast to it; 4 dimensions, padded in front)."""
    lead = len(shape) - t.dim()
    strides = [0 if axis < lead or t.shape[axis - lead] == 1 else t.stride(axis - lead) for axis in range(len(shape))]
    return [t.storage_offset()] + [0] * (4 - len(shape)) + strides


def _flat(t, shape):
    return t.is_contiguous() and tuple(t.shape) == tuple(shape)


def _grid(n, block=_BLOCK):
    blocks = triton.cdiv(n, block)
    across = min(blocks, _MAX_GRID)
    return (across, triton.cdiv(blocks, across))


def _distinct(a, b):
    """Two operands in one storage can't be bound twice: the second is copied first."""
    return b if a._data is not b._data else copy(b)


def binary(op, a, b, dtype, shape):
    from ._tensor import Tensor, _numel
    compare = op in COMPARE and dtype is D.bool_
    if not (compare or (op in BINARY and dtype in _FLOATS)) or len(shape) > 4 or _numel(shape) == 0:
        return None
    tensors = [x for x in (a, b) if isinstance(x, Tensor) and not (x.dim() == 0 and x.device.type == "cpu")]
    if not tensors or not _on_gpu(*tensors):
        return None
    out = fresh(dtype, tuple(shape))
    n = out.numel()
    s1, s2, s3 = _padded(shape)[1:]
    if len(tensors) == 2:
        b = _distinct(a, b)
        K._binary[_grid(n)](_bytes(a), _bytes(b), out, n, s1, s2, s3, *_strides(a, shape), *_strides(b, shape), (COMPARE if compare else BINARY)[op],
                            A_FLAT=_flat(a, shape), B_FLAT=_flat(b, shape), COMPARE=compare, BLOCK=_BLOCK)
        return out
    x = tensors[0]
    other = b if x is a else a
    value = float(other.item() if isinstance(other, Tensor) else other)
    K._binary_scalar[_grid(n)](_bytes(x), out, value, n, s1, s2, s3, *_strides(x, shape), (COMPARE if compare else BINARY)[op],
                               SCALAR_FIRST=x is not a, FLAT=_flat(x, shape), COMPARE=compare, BLOCK=_BLOCK)
    return out


def unary(op, x, dtype):
    # A copy may also make a bool tensor (x.bool(), x != 0); every other op a float one.
    if op not in UNARY or not (dtype in _FLOATS or (op == "copy" and dtype is D.bool_)) or x.dim() > 4 or x.numel() == 0 or not _on_gpu(x):
        return None
    out = fresh(dtype, tuple(x.shape))
    n = out.numel()
    s1, s2, s3 = _padded(x.shape)[1:]
    # bool to bool copies the bytes as they are, as the CPU's copy does: torch.empty's poison byte stays
    # neither True nor False in a clone or a slice made contiguous (and printed as what it is).
    keep_bytes = op == "copy" and x.dtype is D.bool_ and dtype is D.bool_
    source, target = (_bytes(x), _bytes(out)) if keep_bytes else (_base(x), out)
    K._unary[_grid(n)](source, target, n, s1, s2, s3, *_strides(x, x.shape), UNARY[op], FLAT=_flat(x, x.shape), BLOCK=_BLOCK)
    return out


def copy(x, dtype=None):
    """A contiguous copy on the GPU (a cast to `dtype` where given), or None."""
    return unary("copy", x, dtype or x.dtype)


def where(condition, a, b, dtype, shape):
    """torch.where(condition, a, b) of a bool GPU tensor and GPU tensors or numbers, a float result, or None."""
    from ._tensor import Tensor, _numel
    if dtype not in _FLOATS or len(shape) > 4 or _numel(shape) == 0 or not isinstance(condition, Tensor) or condition.dtype is not D.bool_:
        return None
    tensors = [x for x in (condition, a, b) if isinstance(x, Tensor)]
    if any(t.dim() == 0 and t.device.type == "cpu" for t in tensors) or not _on_gpu(*tensors):
        return None
    if len({id(t._data) for t in tensors}) < len(tensors):
        return None
    out = fresh(dtype, tuple(shape))
    n = out.numel()
    s1, s2, s3 = _padded(shape)[1:]
    operands = []
    for x in (a, b):
        if isinstance(x, Tensor):
            operands.append((_base(x), 0.0, _strides(x, shape), False))
        else:
            operands.append((None, float(x), [0] * 5, True))
    (a_ptr, a_value, a_strides, a_scalar), (b_ptr, b_value, b_strides, b_scalar) = operands
    K._where[_grid(n)](_base(condition), a_ptr, b_ptr, out, a_value, b_value, n, s1, s2, s3, *_strides(condition, shape),
                       *a_strides, *b_strides, A_SCALAR=a_scalar, B_SCALAR=b_scalar, BLOCK=_BLOCK)
    return out


def triangle(x, diagonal, upper):
    """torch.triu (upper) / tril of a float or bool GPU tensor of 2 to 4 dims, or None. `diagonal` is
    already within [-rows, cols]."""
    if not (x.dtype in _FLOATS or x.dtype is D.bool_) or not 2 <= x.dim() <= 4 or x.numel() == 0 or not _on_gpu(x):
        return None
    out = fresh(x.dtype, tuple(x.shape))
    n = out.numel()
    s1, s2, s3 = _padded(x.shape)[1:]
    # A bool tensor goes through as its bytes, as a copy does (a True byte is 1, and 0 is False).
    source, target = (_bytes(x), _bytes(out)) if x.dtype is D.bool_ else (_base(x), out)
    K._triangle[_grid(n)](source, target, n, s1, s2, s3, *_strides(x, x.shape), diagonal, UPPER=upper, FLAT=_flat(x, x.shape), BLOCK=_BLOCK)
    return out


def assign(dst, src):
    """dst[...] = src (a GPU tensor, broadcast to dst's shape, or a number) in place; False where it has no kernel."""
    from ._tensor import Tensor
    if _state.cpu or dst.device.type != "cuda" or dst.dtype not in _FLOATS or dst.dim() > 4 or dst.numel() == 0:
        return False
    shape = tuple(dst.shape)
    n = dst.numel()
    s1, s2, s3 = _padded(shape)[1:]
    if not isinstance(src, Tensor) or (src.dim() == 0 and src.device.type == "cpu"):
        value = float(src.item() if isinstance(src, Tensor) else src)
        K._fill[_grid(n)](_base(dst), value, n, s1, s2, s3, *_strides(dst, shape), FLAT=_flat(dst, shape), BLOCK=_BLOCK)
        return True
    if not _on_gpu(src) or src.dim() > 4:
        return False
    if src._data is dst._data:
        src = copy(src)
    K._assign[_grid(n)](_base(src), _base(dst), n, s1, s2, s3, *_strides(src, shape), *_strides(dst, shape), BLOCK=_BLOCK)
    return True


def reduce(op, x, axes, dtype):
    """sum, mean, max or min over `axes` (the result has the other axes, in order), or None."""
    if op not in REDUCE or dtype not in _FLOATS or x.numel() == 0 or not _on_gpu(x):
        return None
    kept = [i for i in range(x.dim()) if i not in axes]
    moved = x.permute(*kept, *axes) if kept + list(axes) != list(range(x.dim())) else x
    moved = _packed(moved)
    if moved is None:
        # Over 4 dims and not contiguous once the reduced axes are moved last (mamba's
        # dD.sum(dim=(0, 1, 2)) of a 5-D tensor): the copy has no kernel, so the CPU reduces.
        return None
    rows = 1
    for i in kept:
        rows *= x.shape[i]
    row_len = x.numel() // rows
    scale = 1.0 / row_len if op == "mean" else 1.0
    # A long row goes in two steps: partial results of 8192 elements each, then those.
    if rows == 1 and row_len > 65536:
        parts = fresh(D.float32, (triton.cdiv(row_len, 8192), ))
        _reduce(moved, parts, row_len, 8192, 1.0, REDUCE[op])
        out = fresh(dtype, tuple(x.shape[i] for i in kept))
        _reduce(parts, out, parts.numel(), parts.numel(), scale, REDUCE[op])
        return out
    out = fresh(dtype, tuple(x.shape[i] for i in kept))
    _reduce(moved, out, moved.numel(), row_len, scale, REDUCE[op])
    return out


def _reduce(x, out, n, row_len, scale, op):
    rows = triton.cdiv(n, row_len)
    across = min(rows, _MAX_GRID)
    block = min(_BLOCK, max(16, triton.next_power_of_2(row_len)))
    K._reduce_rows[(across, triton.cdiv(rows, across))](_base(x), out, n, row_len, scale, OP=op, BLOCK=block)


def softmax(x, dtype):
    """Softmax along the last axis of a contiguous tensor, or None."""
    rows = x.numel() // max(x.shape[-1], 1) if x.dim() else 1
    if not _on_gpu(x) or dtype not in _FLOATS or x.numel() == 0 or rows > _MAX_GRID:
        return None
    if not x.is_contiguous() or x.storage_offset():
        x = copy(x)
    n_cols = x.shape[-1] if x.dim() else 1
    out = fresh(dtype, tuple(x.shape))
    NN._softmax_rows[(rows, )](x, out, n_cols, BLOCK=min(1024, triton.next_power_of_2(n_cols)))
    return out


def _packed(t):
    return t if t.is_contiguous() and t.storage_offset() == 0 else copy(t)


def matmul(a, b, count, m, k, n):
    """(count, m, k) @ (count, k, n) of one float dtype, accumulated in float32, or None."""
    tiles = triton.cdiv(m, 64) * triton.cdiv(n, 64)
    if not _on_gpu(a, b) or a.dtype is not b.dtype or tiles > _MAX_GRID or count > _MAX_GRID or m * n * count == 0:
        return None
    if k == 0:
        # An empty sum (a [m, 0] @ [0, n], a jagged batch's empty sequence): zeros, whatever the operands' views.
        out = fresh(a.dtype, (count, m, n))
        assign(out, 0.0)
        return out
    a, b = _packed(a), _packed(b)
    if a is None or b is None:
        return None
    if a._data is b._data:
        b = copy(b)
    out = fresh(a.dtype, (count, m, n))
    NN._matmul[(tiles, count)](a, b, out, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return out


def conv2d(x, weight, bias, shape):
    """F.conv2d of 4-D x and weight (and bias) of one float dtype, summed in float32, or None. `shape`:
    _conv.py's sizes (padding at the top and left)."""
    s = shape
    operands = [t for t in (x, weight, bias) if t is not None]
    total = s["batch"] * s["outChannels"] * s["outHeight"] * s["outWidth"]
    if not _on_gpu(*operands) or any(t.dtype is not x.dtype or t.dtype not in _FLOATS for t in operands) or total == 0:
        return None
    grid = _grid(total, 256)
    if grid[1] > _MAX_GRID:
        return None
    operands = [_packed(t) for t in operands]
    if len({id(t._data) for t in operands}) < len(operands):
        return None
    x, weight = operands[0], operands[1]
    out = fresh(x.dtype, (s["batch"], s["outChannels"], s["outHeight"], s["outWidth"]))
    NN._conv2d[grid](x, weight, operands[2] if bias is not None else None, out, total, s["channels"], s["height"], s["width"],
                     s["outChannels"], s["outHeight"], s["outWidth"], s["channels"] // s["groups"], s["outChannels"] // s["groups"],
                     s["kernelHeight"], s["kernelWidth"], s["strideH"], s["strideW"], s["padTop"], s["padLeft"],
                     s["dilationH"], s["dilationW"], HAS_BIAS=bias is not None, BLOCK=256)
    return out


def layer_norm(x, weight, bias, eps, n):
    """F.layer_norm's y with a weight and a bias (float32 inside), or None."""
    if weight is None or bias is None or not _on_gpu(x, weight, bias) or x.numel() == 0 or x.numel() // n > _MAX_GRID:
        return None
    x, weight, bias = _packed(x), _packed(weight), _packed(bias)
    if len({id(x._data), id(weight._data), id(bias._data)}) < 3:
        return None
    y = fresh(x.dtype, tuple(x.shape))
    NN._layer_norm_fwd[(x.numel() // n, )](x, weight, bias, y, n, eps, BLOCK=min(1024, triton.next_power_of_2(n)))
    return y


def layer_norm_backward(x, weight, dy, eps, n):
    """(dx, dw, db) of F.layer_norm with a weight and a bias, or None."""
    import torch
    m = x.numel() // n
    if not _on_gpu(x, weight, dy) or m == 0 or m > _MAX_GRID:
        return None
    x, weight, dy = _packed(x), _packed(weight), _packed(dy)
    if len({id(x._data), id(weight._data), id(dy._data)}) < 3:
        return None
    mean = fresh(torch.float32, (m, ))
    rstd = fresh(torch.float32, (m, ))
    dx = fresh(x.dtype, tuple(x.shape))
    dw = fresh(weight.dtype, tuple(weight.shape))
    db = fresh(weight.dtype, tuple(weight.shape))
    NN._layer_norm_bwd_dx[(m, )](x, weight, dy, dx, mean, rstd, n, eps, BLOCK=min(1024, triton.next_power_of_2(n)))
    # dw and db sum over every row: in shares of rows_per rows (enough programs to fill a big GPU), then the shares.
    shares = min(triton.cdiv(m, 32), 128)
    rows_per = triton.cdiv(m, shares)
    dw_parts = fresh(torch.float32, (shares, n))
    db_parts = fresh(torch.float32, (shares, n))
    NN._layer_norm_bwd_dwdb[(triton.cdiv(n, 64), shares)](x, dy, mean, rstd, dw_parts, db_parts, m, n, rows_per, BLOCK_M=16, BLOCK_N=64)
    NN._sum_shares[(triton.cdiv(n, 256), )](dw_parts, dw, shares, n, BLOCK_N=256)
    NN._sum_shares[(triton.cdiv(n, 256), )](db_parts, db, shares, n, BLOCK_N=256)
    return dx, dw, db


# torch.manual_seed's seed and the draws made since: each draw's Philox seed comes from both, so a
# script draws the same numbers on every run on the GPU (not the CPU generator's: --cpu differs).
_draws = [0, 0]


def seed(value):
    _draws[:] = [value, 0]


def random(kind, dtype, shape):
    """torch.rand / randn of a float dtype on the GPU device, or None."""
    from ._tensor import _numel
    if _state.cpu or kind not in ("rand", "randn") or dtype not in _FLOATS or _numel(shape) == 0:
        return None
    _draws[1] += 1
    # splitmix32 of (seed, draw): a different Philox key per draw.
    z = (_draws[0] * 0x9E3779B9 + _draws[1] * 0x85EBCA6B) & 0xFFFFFFFF
    z = ((z ^ (z >> 16)) * 0x7FEB352D) & 0xFFFFFFFF
    z = ((z ^ (z >> 15)) * 0x846CA68B) & 0xFFFFFFFF
    key = (z ^ (z >> 16)) & 0x7FFFFFFF
    out = fresh(dtype, tuple(shape))
    n = out.numel()
    K._random[_grid(n)](out, n, key, NORMAL=kind == "randn", HALF=dtype is D.float16, BLOCK=_BLOCK)
    return out
