# Ops that difference, repeat, reverse or pad a tensor along its dims (torch.diff, repeat_interleave, Tensor.repeat,
# flip, F.pad in its constant mode, div's rounding_mode), built from slices, tensor indexing and cat,
# so they run wherever those do (a GPU tensor's copy is made on the CPU, as indexing's is). fla's
# varlen helpers (ops/utils/index.py) build their chunk indices from them.

import builtins as _b

from . import _dtypes as D
from ._tensor import Tensor, not_implemented


def _along(x, axis, index):
    """x indexed by `index` (a tensor or a slice) along dim `axis`."""
    return x[(slice(None),) * axis + (index,)]


def diff(input, n=1, dim=-1, prepend=None, append=None):
    axis = input._axis(dim)
    from . import cat
    x = cat([t for t in (prepend, input, append) if t is not None], axis) if prepend is not None or append is not None else input
    for _ in range(n):
        length = x.shape[axis]
        if length == 0:
            break
        later, earlier = x.narrow(axis, 1, length - 1), x.narrow(axis, 0, length - 1)
        x = later.logical_xor(earlier) if x.dtype is D.bool_ else later - earlier
    return x


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along `dim`) repeated `repeats` times, an int or one count each; with
    one tensor argument, its counts repeat their own indices (torch.repeat_interleave(counts))."""
    from . import arange, tensor
    if repeats is None:
        repeats, input = input, arange(input.numel(), device=input.device, dtype=input.dtype)
    x = input.reshape(-1) if dim is None else input
    axis = 0 if dim is None else x._axis(dim)
    size = x.shape[axis] if x.dim() else 1
    counts = repeats.reshape(-1).tolist() if isinstance(repeats, Tensor) else [int(repeats)]
    if len(counts) == 1:
        counts = counts * size
    if len(counts) != size:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = {len(counts)} and input.size({axis}) = {size}")
    if _b.any(c < 0 for c in counts):
        raise RuntimeError("repeats can not be negative")
    index = tensor([i for i, c in enumerate(counts) for _ in range(int(c))], dtype=D.int64, device=x.device)
    return _along(x, axis, index)


def flip(input, *dims):
    """A copy with the order along each of `dims` reversed (mamba's ssd_combined.py takes a reversed
    cumsum as x.flip([-1]).cumsum(dim=-1).flip([-1]))."""
    dims = dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
    from . import arange
    out = input
    for d in dims:
        axis = input._axis(d)
        out = _along(out, axis, arange(input.shape[axis] - 1, -1, -1, device=input.device))
    return out if dims else input.clone()


def pad(input, pad, mode="constant", value=None):
    """torch.nn.functional.pad in its constant mode: `pad` gives (left, right) for the last dim, then
    the one before…; a negative amount crops."""
    if mode != "constant":
        not_implemented(f"torch.nn.functional.pad(mode={mode!r}) (Kernel Lab pads with a constant only)")
    if len(pad) % 2 or len(pad) // 2 > input.dim():
        raise RuntimeError(f"Padding length must be divisible by 2 and at most twice the input's dims, got {len(pad)} for {input.dim()} dims")
    from . import full
    shape = list(input.shape)
    source, target = [slice(None)] * input.dim(), [slice(None)] * input.dim()
    for i in range(len(pad) // 2):
        axis = input.dim() - 1 - i
        left, right = int(pad[2 * i]), int(pad[2 * i + 1])
        size = shape[axis]
        shape[axis] = size + left + right
        source[axis] = slice(_b.max(0, -left), size - _b.max(0, -right))
        target[axis] = slice(_b.max(0, left), _b.max(0, left) + _b.max(0, size - _b.max(0, -left) - _b.max(0, -right)))
    from ._autograd import _grad_mode, attach
    with _grad_mode(False):
        out = full(shape, 0 if value is None else value, dtype=input.dtype, device=input.device)
        out[tuple(target)] = input[tuple(source)]

    def backward(g):
        # The padded gradient's inner part back where the input was (zeros where it was cropped).
        grad = full(input.shape, 0, dtype=g.dtype, device=g.device)
        grad[tuple(source)] = g[tuple(target)]
        return [grad]
    return attach(out, "ConstantPadNdBackward", [input], backward)


def div(a, b, rounding_mode=None):
    """a / b; rounding_mode "floor" rounds the quotient down, "trunc" toward zero (integers stay integers)."""
    from ._math import binary
    if rounding_mode is None:
        return binary("div", a, b)
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")
    integers = _b.all(x.dtype.kind != "float" if isinstance(x, Tensor) else not isinstance(x, float) for x in (a, b))
    if integers:
        q = binary("floordiv", a, b)
        if rounding_mode == "trunc":
            # Floor and trunc differ where the division is inexact and the signs differ.
            inexact = binary("ne", binary("sub", a, binary("mul", q, b)), 0)
            signs = binary("ne", binary("lt", a, 0), binary("lt", b, 0))
            q = binary("add", q, binary("logical_and", inexact, signs).to(q.dtype))
        return q
    exact = binary("div", a, b)
    return exact.floor() if rounding_mode == "floor" else exact.trunc()


def nonzero(input, *, out=None, as_tuple=False):
    """The indices of the elements that aren't zero (NaN isn't), in row-major order: an int64 tensor
    of one row per element and one column per dim, or with as_tuple one 1-D tensor per dim.
    triton-lang/kernels' blocksparse make_lut reads a layout's blocks as
    `layout.nonzero(as_tuple=False)[:, 2]`."""
    if out is not None:
        not_implemented("torch.nonzero(out=…)")
    from . import tensor, zeros
    shape = list(input.shape)
    found = []
    for k, v in enumerate(input.reshape(-1).tolist()):
        if v:
            index = []
            for size in reversed(shape):
                index.append(k % size)
                k //= size
            found.append(index[::-1])
    if not shape:
        rows = zeros((len(found), 0), dtype=D.int64, device=input.device)
        return (zeros((len(found),), dtype=D.int64, device=input.device),) if as_tuple else rows
    rows = tensor(found, dtype=D.int64, device=input.device) if found else zeros((0, len(shape)), dtype=D.int64, device=input.device)
    return tuple(rows[:, d] for d in range(len(shape))) if as_tuple else rows


def repeat(input, *sizes):
    """A copy tiled `sizes[d]` times along each dim, leading dims added where `sizes` has more
    (torch's Tensor.repeat; triton-lang/kernels' blocksparse dsd_lut: `B_incs.view(-1, 1).repeat(1, div)`)."""
    sizes = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
    sizes = tuple(int(r) for r in sizes)
    if len(sizes) < input.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    if _b.any(r < 0 for r in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension: {list(sizes)}")
    shape = (1,) * (len(sizes) - input.dim()) + tuple(input.shape)
    spread = [n for s in shape for n in (1, s)]
    tiled = [n for r, s in zip(sizes, shape) for n in (r, s)]
    return input.reshape(spread).expand(tiled).reshape([r * s for r, s in zip(sizes, shape)]).clone()


def install():
    Tensor.repeat = repeat
    Tensor.nonzero = lambda self, *, as_tuple=False: nonzero(self, as_tuple=as_tuple)
    Tensor.diff = lambda self, n=1, dim=-1, prepend=None, append=None: diff(self, n, dim, prepend, append)
    Tensor.repeat_interleave = lambda self, repeats=None, dim=None, *, output_size=None: repeat_interleave(self, repeats, dim)
    Tensor.flip = flip
    Tensor.div = lambda self, other, *, rounding_mode=None: div(self, other, rounding_mode)
    Tensor.div_ = lambda self, other, *, rounding_mode=None: self._assign(self, div(self, other, rounding_mode))
    Tensor.divide = Tensor.div
