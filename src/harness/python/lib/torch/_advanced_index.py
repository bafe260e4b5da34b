# Indexing a tensor with a tensor, as torch does (`cos[position_ids]`, `x[mask]`, `x[mask] = 0`,
# `x[:, idx] = v`): one index tensor per subscript — integers (any shape: the result has its dims
# where it stands) or booleans (a mask over as many dims as it has: one dim of the selected
# elements, in row-major order). Also a list of ints or bools, which torch takes as such a tensor.
# A copy, computed on the CPU (a GPU tensor is read back and the result put on its device), as
# torch's result is a copy too; `x[...] = v` writes the chosen elements of x in place.

from . import _dtypes as D
from ._not_implemented import not_implemented


def is_advanced(key):
    parts = key if isinstance(key, tuple) else (key,)
    from ._tensor import Tensor
    return any(isinstance(k, (Tensor, list)) for k in parts)


def _split(x, key):
    """(basic key with the index tensor's dims as slices, the axis its dims start at, the index tensor)."""
    from ._tensor import Tensor
    import torch
    parts = list(key if isinstance(key, tuple) else (key,))
    parts = [torch.tensor(k, device=x.device) if isinstance(k, list) else k for k in parts]
    at = [i for i, k in enumerate(parts) if isinstance(k, Tensor)]
    if len(at) > 1:
        not_implemented("indexing with several tensors in one subscript (x[i, j] picks the pairs (i[k], j[k]); "
                        "Kernel Lab takes one index tensor per subscript: flatten those dims and index once, "
                        "x.flatten(0, 1)[i * x.shape[1] + j])")
    pos, index = at[0], parts[at[0]]
    if index.dtype.kind == "float":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    width = index.dim() if index.dtype is D.bool_ else 1
    if index.dtype is D.bool_ and index.dim() == 0:
        not_implemented("indexing with a 0-dim bool tensor (x[True]); write x.unsqueeze(0) or x[None] instead")
    # (identity, not `in`: == on the index tensor would compare elementwise)
    if any(k is Ellipsis for k in parts):
        e = next(i for i, k in enumerate(parts) if k is Ellipsis)
        used = sum(width if i == pos else 0 if k is None else 1 for i, k in enumerate(parts) if k is not Ellipsis)
        parts[e:e + 1] = [slice(None)] * (x.dim() - used)
        pos = next(i for i, k in enumerate(parts) if k is index)
    axis = sum(1 for k in parts[:pos] if k is None or isinstance(k, slice))
    basic = parts[:pos] + [slice(None)] * width + parts[pos + 1:]
    return tuple(basic), axis, index


def _rows(index, view, axis):
    """The positions along `axis` (the mask's dims flattened into one) and the index's shape in the result."""
    if index.dtype is D.bool_:
        dims = view.shape[axis:axis + index.dim()]
        if tuple(index.shape) != tuple(dims):
            for i, (m, d) in enumerate(zip(index.shape, dims)):
                if m != d:
                    raise IndexError(f"The shape of the mask {list(index.shape)} at index {i} does not match the shape "
                                     f"of the indexed tensor {list(view.shape)} at index {axis + i}")
            raise IndexError(f"too many indices for tensor of dimension {view.dim()}")
        flags = index.reshape(-1).tolist()
        rows = [i for i, keep in enumerate(flags) if keep]
        return rows, (len(rows),), index.dim()
    extent = view.shape[axis]
    rows = index.reshape(-1).tolist()
    for r in rows:
        if not -extent <= r < extent:
            raise IndexError(f"index {r} is out of bounds for dimension {axis} with size {extent}")
    return [r % extent for r in rows], tuple(index.shape), 1


def _front(view, axis, width):
    """view's data with the indexed dims first and flattened: (their count, rest of dims, a list per position)."""
    order = list(range(axis, axis + width)) + [d for d in range(view.dim()) if not axis <= d < axis + width]
    moved = view.permute(*order).contiguous()
    rest = tuple(moved.shape[width:])
    n = 1
    for s in moved.shape[:width]:
        n *= s
    return rest, moved.reshape(n, -1).tolist() if n else []


def _back(t, axis, index_dims):
    """(*index dims, *before, *after) → (*before, *index dims, *after): the index's dims where it stood."""
    k = len(index_dims)
    order = list(range(k, k + axis)) + list(range(k)) + list(range(k + axis, t.dim()))
    return t.permute(*order)


def get(x, key):
    import torch
    from ._autograd import refuse_grad
    from ._math import _on_cpu
    refuse_grad("indexing with a tensor", x)
    basic, axis, index = _split(x, key)
    view = x[basic]
    rows, index_dims, width = _rows(index, view, axis)
    _on_cpu("indexing with a tensor", x, index)
    rest, data = _front(view, axis, width)
    picked = [data[r] for r in rows]
    out = torch.tensor(picked, dtype=x.dtype, device=x.device) if picked else torch.empty(0, dtype=x.dtype, device=x.device)
    out = out.reshape(*index_dims, *rest)
    return _back(out, axis, index_dims).contiguous()


def put(x, key, value):
    import torch
    from ._tensor import Tensor
    from ._math import _on_cpu
    basic, axis, index = _split(x, key)
    view = x[basic]
    rows, index_dims, width = _rows(index, view, axis)
    _on_cpu("assigning through a tensor index", x, index)
    rest, data = _front(view, axis, width)
    before = tuple(view.shape[:axis])
    target = (*before, *index_dims, *tuple(view.shape[axis + width:]))
    v = value if isinstance(value, Tensor) else torch.tensor(value, dtype=x.dtype)
    v = v.to(x.dtype).broadcast_to(target)
    k = len(index_dims)
    order = list(range(len(before), len(before) + k)) + list(range(len(before))) + list(range(len(before) + k, len(target)))
    pieces = v.permute(*order).contiguous().reshape(len(rows), -1).tolist() if rows else []
    for r, piece in zip(rows, pieces):
        data[r] = piece
    if not rows:
        return
    n = len(data)
    moved_shape = (*view.shape[axis:axis + width], *rest)
    new = torch.tensor(data, dtype=x.dtype, device=x.device).reshape(*moved_shape) if n else None
    # back to view's dim order: the indexed dims were moved to the front
    order = list(range(width, width + axis)) + list(range(width)) + list(range(width + axis, view.dim()))
    x._assign(view, new.permute(*order))
