# torch.Tensor's copies and conversions (clone, contiguous, .to(dtype/device), .float(), ...) and its
# elements read back into Python (tolist, item, float(t), bool(t)).

import _kernel_lab_ops as _js

from . import _dtypes as D
from ._not_implemented import not_implemented
from ._size import _numel

# The class these methods belong to: _tensor.py builds Tensor on top of this mixin and names it here
# (an import at the top would be circular).
Tensor = None


class TensorConversions:
    # -- copies and conversions -----------------------------------------------------------------------
    def contiguous(self, memory_format=None):
        return self if self.is_contiguous() and self._offset == 0 else self.clone()

    def clone(self, memory_format=None):
        return self._copy(self._dtype)

    def _copy(self, dtype):
        """A contiguous copy, cast to dtype: a GPU kernel for a GPU tensor where it has one (_on_gpu.copy)."""
        from . import _on_gpu
        from ._not_implemented import refuse_missing_dtype
        refuse_missing_dtype(dtype)
        if self._device.type == "cuda":
            out = _on_gpu.copy(self, dtype)
            if out is not None:
                return out
            _on_gpu.left_out(f"a copy to {dtype.name}")
        return self._new(_js.copy(self._view(), dtype.name), dtype, self._shape)

    def to(self, *args, **kwargs):
        from ._not_implemented import refuse_keywords
        given = {k: kwargs.pop(k) for k in ("dtype", "device", "other") if k in kwargs}
        copy = kwargs.pop("copy", False)
        kwargs.pop("non_blocking", None)  # Kernel Lab's copies are finished when they return
        refuse_keywords("torch.Tensor.to", kwargs, "a dtype, a device or a tensor (positional or dtype=/device=/other=), non_blocking, copy")
        out = self
        for a in list(args) + list(given.values()):
            if isinstance(a, D.dtype):
                out = out if out._dtype is a else out._copy(a)
            elif isinstance(a, (str, D.device)):
                out = out._moved(D.as_device(a))
            elif isinstance(a, Tensor):
                out = out.to(a.dtype, a.device)
        return out.clone() if copy and out is self else out

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

    @property
    def data(self):
        """torch's `.data`: the same storage as a tensor outside autograd (test_core.py's test_load_scalar_with_mask)."""
        return self.detach()

    @data.setter
    def data(self, other):
        # `param.data = new`: this tensor takes the other's storage, dtype and shape, keeping its autograd flags.
        self._data, self._dtype, self._shape, self._stride, self._offset, self._device = other._data, other._dtype, other._shape, other._stride, other._offset, other._device

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
        # Through a Float64Array's buffer: a JS number that is a whole number reaches Python as an int, and -0.0 as 0.
        return self._scalar(_js.all(self._view()).to_py()[0])

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
