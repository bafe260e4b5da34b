# torch.Tensor: Python keeps the shape, strides, offset and dtype; the elements live in a storage
# (_resident.py: a JS typed array over shared memory, and for a tensor on the GPU device a GPU
# buffer that launches bind in place), and every loop over them runs in JS (_kernel_lab_ops,
# tensor-ops.ts). Methods the tutorials and kernel tests use are here; anything else raises
# NotImplementedError naming it.

import math

import _kernel_lab_ops as _js
from pyodide.ffi import to_js

from . import _dtypes as D
from ._resident import wrap as _wrap


def _contiguous_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def _numel(shape):
    n = 1
    for extent in shape:
        n *= extent
    return n


def _size_args(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        return tuple(int(a) for a in args[0])
    return tuple(int(a) for a in args)


class Size(tuple):
    def numel(self):
        return _numel(self)

    def __repr__(self):
        return f"torch.Size([{', '.join(str(x) for x in self)}])"


class NotInKernelLab(NotImplementedError, AttributeError):
    """Also an AttributeError, so `hasattr(torch, "float8_e5m2")` is False as on a torch without it."""


def not_implemented(name):
    raise NotInKernelLab(
        f"{name} is not in Kernel Lab's torch (README: Triton in Python, the torch subset); "
        "Kernel Lab never guesses, so the script stops here")


class Tensor:
    __array_priority__ = 1000

    def __init__(self, *args, **kwargs):
        not_implemented("torch.Tensor(...)")

    @classmethod
    def _make(cls, data, dtype, shape, strides=None, offset=0, device=None):
        t = object.__new__(cls)
        t._data = _wrap(data)
        t._dtype = dtype
        t._shape = tuple(shape)
        t._stride = tuple(strides) if strides is not None else _contiguous_strides(shape)
        t._offset = offset
        t._device = device if device is not None else D.device("cpu")
        t.requires_grad = False
        t.grad = None
        t.grad_fn = None
        t._version = 0
        return t

    # -- what a tensor is --------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._device

    @property
    def shape(self):
        return Size(self._shape)

    def size(self, dim=None):
        return Size(self._shape) if dim is None else self._shape[self._axis(dim)]

    def stride(self, dim=None):
        return self._stride if dim is None else self._stride[self._axis(dim)]

    def dim(self):
        return len(self._shape)

    ndim = property(dim)

    def numel(self):
        return _numel(self._shape)

    def element_size(self):
        return self._dtype.itemsize

    def storage_offset(self):
        return self._offset

    def is_contiguous(self):
        return all(s == c or e == 1 for s, c, e in zip(self._stride, _contiguous_strides(self._shape), self._shape))

    @property
    def is_cuda(self):
        return self._device.type == "cuda"

    def is_floating_point(self):
        return self._dtype.is_floating_point

    def data_ptr(self):
        # Triton passes a tensor by its data; Kernel Lab passes the storage itself, so this is a label.
        return id(self._data) * 16 + self._offset * self._dtype.itemsize

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def _axis(self, dim):
        rank = len(self._shape)
        if not -max(rank, 1) <= dim < max(rank, 1):
            raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
        return dim % rank if rank else 0

    def _view(self, write=False):
        """The elements as tensor-ops.ts reads them (brought back from the GPU first where a launch left them); `write`: about to change them."""
        data = self._data.write() if write else self._data.read()
        return _js.view(data, self._dtype.name, self._offset, to_js(list(self._shape)), to_js(list(self._stride)))

    def _new(self, data, dtype, shape):
        return Tensor._make(data, dtype, shape, device=self._device)

    # -- views ---------------------------------------------------------------------------------------
    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], D.dtype):
            not_implemented("Tensor.view(dtype)")
        shape = self._infer(_size_args(shape))
        if not self.is_contiguous():
            raise RuntimeError("view size is not compatible with input tensor's size and stride; use .reshape(...) instead.")
        return Tensor._make(self._data, self._dtype, shape, offset=self._offset, device=self._device)

    def reshape(self, *shape):
        return (self if self.is_contiguous() else self.contiguous()).view(*shape)

    def flatten(self, start_dim=0, end_dim=-1):
        if not self._shape:
            return self.reshape(1)
        s, e = self._axis(start_dim), self._axis(end_dim)
        return self.reshape(*self._shape[:s], -1, *self._shape[e + 1:])

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
        keep = [i for i, e in enumerate(self._shape) if not (e == 1 and (dim is None or i == self._axis(dim)))]
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

    # -- indexing ------------------------------------------------------------------------------------
    def _index(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        if any(isinstance(k, Tensor) for k in key) or any(isinstance(k, (list,)) for k in key):
            not_implemented("indexing a tensor with a tensor or a list (advanced indexing)")
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
        self._assign(self._index(key), value)

    def _assign(self, target, value):
        """target (a view of this tensor) = value, in place: on the GPU where it has a kernel (_on_gpu.assign)."""
        from . import _on_gpu
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

    # -- copies and conversions -----------------------------------------------------------------------
    def contiguous(self, memory_format=None):
        return self if self.is_contiguous() and self._offset == 0 else self.clone()

    def clone(self, memory_format=None):
        return self._copy(self._dtype)

    def _copy(self, dtype):
        """A contiguous copy, cast to dtype: a GPU kernel for a GPU tensor where it has one (_on_gpu.copy)."""
        from . import _on_gpu
        if self._device.type == "cuda":
            out = _on_gpu.copy(self, dtype) if self._dtype.kind == "float" else None
            if out is not None:
                return out
            _on_gpu.left_out(f"a copy to {dtype.name}")
        return self._new(_js.copy(self._view(), dtype.name), dtype, self._shape)

    def to(self, *args, **kwargs):
        out = self
        for a in list(args) + list(kwargs.values()):
            if isinstance(a, D.dtype):
                out = out if out._dtype is a else out._copy(a)
            elif isinstance(a, (str, D.device)):
                out = out._moved(D.as_device(a))
            elif isinstance(a, Tensor):
                out = out.to(a.dtype, a.device)
        return out

    def _moved(self, device):
        """A copy on the other device, made on the CPU (a GPU tensor's elements read back first; to the GPU: uploaded when a kernel needs it)."""
        if device == self._device:
            return self
        return Tensor._make(_js.copy(self._view(), self._dtype.name), self._dtype, self._shape, device=device)

    def cuda(self, device=None):
        return self._moved(D.device("cuda"))

    def cpu(self):
        return self._moved(D.device("cpu"))

    def float(self):
        return self.to(D.float32)

    def half(self):
        return self.to(D.float16)

    def bfloat16(self):
        return self.to(D.bfloat16)

    def int(self):
        return self.to(D.int32)

    def long(self):
        return self.to(D.int64)

    def bool(self):
        return self.to(D.bool_)

    def type(self, dtype=None):
        return self.to(dtype) if dtype is not None else f"torch.{'cuda.' if self.is_cuda else ''}{self._dtype.name.capitalize()}Tensor"

    def detach(self):
        t = Tensor._make(self._data, self._dtype, self._shape, self._stride, self._offset, self._device)
        return t

    def requires_grad_(self, value=True):
        self.requires_grad = value
        return self

    def tolist(self):
        flat = list(_js.all(self._view()).to_py())
        flat = [self._scalar(v) for v in flat]

        def nest(items, shape):
            if not shape:
                return items[0]
            if len(shape) == 1:
                return items
            step = _numel(shape[1:])
            return [nest(items[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]

        return nest(flat, self._shape)

    def _scalar(self, v):
        if self._dtype is D.bool_:
            return bool(v)
        if self._dtype.kind == "int":
            return int(v)
        return float(v)

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return self._scalar(_js.elements(self._view(), to_js([0]))[0])

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self._dtype.kind != "int":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def numpy(self):
        not_implemented("Tensor.numpy (Kernel Lab's Python has no numpy)")
    numpy.refused = True

    def __hash__(self):
        return id(self)

    def __repr__(self):
        from ._format import format_tensor
        return format_tensor(self)

    def __format__(self, spec):
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec) if spec else repr(self)
