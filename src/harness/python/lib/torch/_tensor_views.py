# torch.Tensor's views (view, reshape, permute, expand, narrow, split, ...) and indexing (x[i, :, None],
# x[...] = v): new shapes, strides and offsets over the same storage; assignment writes in place.

import math

import _kernel_lab_ops as _js

from . import _dtypes as D
from . import _advanced_index
from ._not_implemented import not_implemented
from ._size import _numel, _size_args

# The class these methods belong to: _tensor.py builds Tensor on top of this mixin and names it here
# (an import at the top would be circular).
Tensor = None


class TensorViews:
    # -- views ---------------------------------------------------------------------------------------
    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], D.dtype):
            if shape[0] is not self._dtype:
                not_implemented("Tensor.view(dtype) to another dtype")
            # Its own dtype (torch.cuda.default_generators' state, already int64): the tensor's view.
            shape = (tuple(self._shape),)
        shape = self._infer(_size_args(shape))
        if self.is_contiguous():
            return Tensor._make(self._data, self._dtype, shape, offset=self._offset, device=self._device)
        stride = _view_strides(self._shape, self._stride, shape)
        if stride is None:
            raise RuntimeError("view size is not compatible with input tensor's size and stride; use .reshape(...) instead.")
        return Tensor._make(self._data, self._dtype, shape, stride, self._offset, self._device)

    def as_strided(self, size, stride, storage_offset=None):
        """A view of this tensor's storage with any sizes and strides (torch.compile's reinterpret_tensor):
        refused where it would reach past the storage."""
        size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
        offset = self._offset if storage_offset is None else int(storage_offset)
        last = offset + sum((n - 1) * s for n, s in zip(size, stride)) if 0 not in size else offset - 1
        if len(size) != len(stride) or offset < 0 or any(s < 0 for s in stride) or last >= self._data.js.length:
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset} "
                               f"are out of bounds for storage of {self._data.js.length} elements")
        return Tensor._make(self._data, self._dtype, size, stride, offset, self._device)

    def view_as(self, other):
        return self.view(*other.shape)

    def reshape_as(self, other):
        return self.reshape(*other.shape)

    def reshape(self, *shape):
        return (self if self.is_contiguous() else self.contiguous()).view(*shape)

    def flatten(self, start_dim=0, end_dim=-1):
        if not self._shape:
            return self.reshape(1)
        s, e = self._axis(start_dim), self._axis(end_dim)
        return self.reshape(*self._shape[:s], -1, *self._shape[e + 1:])

    def unflatten(self, dim, sizes):
        # flatten's inverse: axis dim split into sizes (one of them may be -1), a view where one is possible.
        d = self._axis(dim)
        sizes = tuple(int(n) for n in sizes)
        if -1 in sizes:
            known = _numel([n for n in sizes if n != -1])
            sizes = tuple(self._shape[d] // known if n == -1 else n for n in sizes)
        if _numel(sizes) != self._shape[d]:
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                               f"({self._shape[d]}) in the input tensor")
        return self.reshape(*self._shape[:d], *sizes, *self._shape[d + 1:])

    def _infer(self, shape):
        if -1 in shape:
            known = _numel([x for x in shape if x != -1])
            shape = tuple(self.numel() // known if x == -1 else x for x in shape)
        if _numel(shape) != self.numel():
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {self.numel()}")
        return shape

    def permute(self, *dims):
        dims = [self._axis(d) for d in _size_args(dims)]
        return Tensor._make(self._data, self._dtype, [self._shape[d] for d in dims], [self._stride[d] for d in dims], self._offset, self._device)

    def transpose(self, a, b):
        dims = list(range(self.dim()))
        a, b = self._axis(a), self._axis(b)
        dims[a], dims[b] = dims[b], dims[a]
        return self.permute(*dims)

    def t(self):
        return self if self.dim() < 2 else self.transpose(0, 1)

    @property
    def T(self):
        return self.permute(*reversed(range(self.dim())))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def unsqueeze(self, dim):
        dim = dim % (self.dim() + 1)
        stride = self._stride[dim] * self._shape[dim] if dim < self.dim() else 1
        return Tensor._make(self._data, self._dtype, self._shape[:dim] + (1,) + self._shape[dim:], self._stride[:dim] + (stride,) + self._stride[dim:], self._offset, self._device)

    def squeeze(self, dim=None):
        # dim: one axis, a tuple or list of them (torch 2.0's squeeze(dim=[1, 2]), FlagGems' var_mean), or all.
        axes = None if dim is None else {self._axis(d) for d in (dim if isinstance(dim, (tuple, list)) else [dim])}
        keep = [i for i, e in enumerate(self._shape) if not (e == 1 and (axes is None or i in axes))]
        return Tensor._make(self._data, self._dtype, [self._shape[i] for i in keep], [self._stride[i] for i in keep], self._offset, self._device)

    def expand(self, *sizes):
        sizes = _size_args(sizes)
        lead = len(sizes) - self.dim()
        shape, strides = [], []
        for i, want in enumerate(sizes):
            own = i - lead
            have = self._shape[own] if own >= 0 else 1
            stride = self._stride[own] if own >= 0 else 0
            if want == -1:
                want = have
            if have != want and have != 1:
                raise RuntimeError(f"The expanded size of the tensor ({want}) must match the existing size ({have}) at non-singleton dimension {i}.")
            shape.append(want)
            strides.append(stride if have == want else 0)
        return Tensor._make(self._data, self._dtype, shape, strides, self._offset, self._device)

    def expand_as(self, other):
        return self.expand(other.shape)

    def broadcast_to(self, size):
        return self.expand(size)

    def narrow(self, dim, start, length):
        index = [slice(None)] * self.dim()
        index[self._axis(dim)] = slice(start, start + length)
        return self[tuple(index)]

    def unbind(self, dim=0):
        return tuple(self.select(dim, i) for i in range(self._shape[self._axis(dim)]))

    def select(self, dim, i):
        index = [slice(None)] * self.dim()
        index[self._axis(dim)] = i
        return self[tuple(index)]

    def chunk(self, n, dim=0):
        size = math.ceil(self._shape[self._axis(dim)] / n)
        return self.split(size, dim)

    def split(self, size, dim=0):
        axis = self._axis(dim)
        sizes = size if isinstance(size, (list, tuple)) else [size] * math.ceil(self._shape[axis] / size)
        out, at = [], 0
        for s in sizes:
            s = min(s, self._shape[axis] - at)
            out.append(self.narrow(axis, at, s))
            at += s
        return tuple(out)

    def tensor_split(self, sections, dim=0):
        """n parts, the first (length % n) one longer (mamba's layer_norm.py splits its dropout masks so),
        or the parts between the given indices."""
        axis = self._axis(dim)
        length = self._shape[axis]
        if isinstance(sections, int):
            if sections < 1:
                raise RuntimeError(f"tensor_split: number of sections must be larger than 0, got {sections}")
            q, r = divmod(length, sections)
            cuts, at = [], 0
            for i in range(sections - 1):
                at += q + (1 if i < r else 0)
                cuts.append(at)
        else:
            cuts = [int(i) for i in sections]
        bounds = [min(max(c + length if c < 0 else c, 0), length) for c in cuts]
        starts, ends = [0, *bounds], [*bounds, length]
        return tuple(self.narrow(axis, a, max(b - a, 0)) for a, b in zip(starts, ends))

    # -- indexing ------------------------------------------------------------------------------------
    def _index(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        if _advanced_index.is_advanced(key):
            return _advanced_index.get(self, key)
        if Ellipsis in key:
            at = key.index(Ellipsis)
            fill = self.dim() - (len(key) - 1 - sum(k is None for k in key))
            key = key[:at] + (slice(None),) * fill + key[at + 1:]
        shape, strides, offset, axis = [], [], self._offset, 0
        for k in key:
            if k is None:
                shape.append(1)
                strides.append(0)
                continue
            if axis >= self.dim():
                raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
            extent, stride = self._shape[axis], self._stride[axis]
            if isinstance(k, slice):
                start, stop, step = k.indices(extent)
                if step <= 0:
                    raise ValueError("step must be greater than zero")
                shape.append(max(0, (stop - start + step - 1) // step))
                strides.append(stride * step)
                offset += start * stride
            else:
                i = int(k)
                if not -extent <= i < extent:
                    raise IndexError(f"index {i} is out of bounds for dimension {axis} with size {extent}")
                offset += (i % extent) * stride
            axis += 1
        shape += self._shape[axis:]
        strides += self._stride[axis:]
        return Tensor._make(self._data, self._dtype, shape, strides, offset, self._device)

    def __getitem__(self, key):
        return self._index(key)

    def __setitem__(self, key, value):
        if _advanced_index.is_advanced(key):
            _advanced_index.put(self, key, value)
            return
        self._assign(self._index(key), value)

    def _assign(self, target, value):
        """target (a view of this tensor) = value, in place: on the GPU where it has a kernel (_on_gpu.assign)."""
        from . import _on_gpu
        from ._autograd import refuse_grad
        # Written in place, a value's gradient would be dropped without a word: refused instead.
        refuse_grad("an in-place write of a tensor that requires grad (x[…] = y, copy_, +=)", value)
        if not _on_gpu.assign(target, value):
            source = value._view() if isinstance(value, Tensor) else float(value)
            _js.assign(target._view(write=True), source)
        self._version += 1
        return self

    def copy_(self, src, non_blocking=False):
        return self._assign(self, src)

    def fill_(self, value):
        return self._assign(self, value)

    def zero_(self):
        return self._assign(self, 0.0)

    def __iter__(self):
        return iter(self.unbind(0))


def _view_strides(old_shape, old_stride, new_shape):
    """
    The strides of a view of a non-contiguous tensor, or None where there is none: ATen's computeStride
    (TensorUtils.cpp). Each run of old dims that is contiguous within itself may be split or merged,
    so `o[:, :, :, 0].view(B, G, Hq, Mq, K)` of a [B, G, 1, S, M, K] tensor is a view, as in torch
    (xformers' triton_splitk.py).
    """
    if _numel(old_shape) == 0:
        return list(old_stride) if tuple(old_shape) == tuple(new_shape) else None
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_stride[-1] if old_shape else 1
    tensor_numel = view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel = view_numel = 1
    return new_stride if view_d == -1 else None
