# torch.Tensor: Python keeps the shape, strides, offset and dtype; the elements live in a storage
# (_resident.py: a JS typed array over shared memory, and for a tensor on the GPU device a GPU
# buffer that launches bind in place), and every loop over them runs in JS (_kernel_lab_ops,
# tensor-ops.ts). Methods the tutorials and kernel tests use are here and in the two mixins
# (_tensor_views.py: views and indexing; _tensor_conversions.py: copies, conversions, elements back
# into Python); anything else raises NotImplementedError naming it. Size and not_implemented are
# imported from here by torch's other modules.

import _kernel_lab_ops as _js
from pyodide.ffi import to_js

from . import _dtypes as D
from . import _tensor_conversions, _tensor_views
from ._not_implemented import not_implemented
from ._resident import wrap as _wrap
from ._size import Size, _contiguous_strides, _numel
from ._tensor_conversions import TensorConversions
from ._tensor_views import TensorViews


class Tensor(TensorViews, TensorConversions):
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

    nelement = numel  # torch's older name (gpu-mode's lecture 1 triton_square.py: `x.nelement() * x.element_size()`)

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

    def is_complex(self):
        return self._dtype.is_complex

    def data_ptr(self):
        # Triton passes a tensor by its data; Kernel Lab passes the storage itself, so this is a label.
        return id(self._data) * 16 + self._offset * self._dtype.itemsize

    def untyped_storage(self):
        # xformers compares storages by `x.untyped_storage().data_ptr()` and sizes inputs by `.nbytes()`.
        return UntypedStorage(self)

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

    def __hash__(self):
        return id(self)

    def __repr__(self):
        from ._format import format_tensor
        return format_tensor(self)

    def __format__(self, spec):
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec) if spec else repr(self)


_tensor_views.Tensor = _tensor_conversions.Tensor = Tensor


class UntypedStorage:
    """A tensor's storage as torch's `untyped_storage()` shows it: its address (the label data_ptr gives
    its first element) and its size in bytes."""

    def __init__(self, tensor):
        self._data = tensor._data
        self._itemsize = tensor._dtype.itemsize

    def data_ptr(self):
        return id(self._data) * 16

    def nbytes(self):
        return self._data.js.length * self._itemsize

    size = nbytes
