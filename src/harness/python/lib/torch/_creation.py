# torch's creation functions (empty, zeros, full, rand, arange, tensor, the *_like ones) and the
# Tensor methods that make a tensor (new_empty & co., normal_, uniform_). Floats on the GPU device
# are made there by a kernel; everything else is made on the CPU side and uploaded when a kernel
# needs it. A keyword they don't take is refused (_not_implemented.refuse_keywords), never dropped.

import builtins as _b
import math as _math_module

import _kernel_lab_ops as _js
import _kernel_lab_state as _state

from . import _dtypes
from . import _on_gpu
from . import _not_implemented
from ._dtypes import float16, float32, int64
from ._like import _like
from ._tensor import Size, Tensor, not_implemented

# This module's `float`, `int`, `bool` are Python's (torch's __init__ rebinds them to dtypes).
_builtin_int, _builtin_float, _builtin_bool = _b.int, _b.float, _b.bool

def _shape_of(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = tuple(size[0])
    return tuple(_builtin_int(s) for s in size)


_CREATION_KEYWORDS = "the sizes (or size=), dtype, device, requires_grad"


def _sizes(name, size, kwargs):
    """A creation function's shape, given as sizes, one sequence, or `size=` (FlagGems' `torch.empty(size=(B, C), …)`)."""
    if "size" in kwargs:
        if size:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        size = (kwargs.pop("size"),)
    if kwargs.pop("out", None) is not None:
        not_implemented(f"torch.{name}(out=)")
    _not_implemented.refuse_keywords(f"torch.{name}", kwargs, _CREATION_KEYWORDS)
    return _shape_of(size)


def _create(data, dtype_, shape, device_, requires_grad=False):
    t = Tensor._make(data, dtype_, shape, device=_dtypes.as_device(device_))
    t.requires_grad = requires_grad
    return t


def _storage(dtype_, shape):
    _not_implemented.refuse_missing_dtype(dtype_)
    n = 1
    for s in shape:
        n *= s
    return _js.allocate(dtype_.name, n)


def _on_gpu_filled(shape, dtype_, device_, value, requires_grad):
    """A float tensor on the GPU device filled by a kernel there (nothing uploaded), or None."""
    _not_implemented.refuse_missing_dtype(dtype_)
    if _state.cpu or _dtypes.as_device(device_).type != "cuda" or dtype_ not in (float32, float16) or _b.any(s == 0 for s in shape):
        return None
    t = _on_gpu.fresh(dtype_, shape)
    _on_gpu.assign(t, value)
    t.requires_grad = requires_grad
    return t


def empty(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    """Uninitialised in torch; here poisoned so an element a kernel forgets to write shows: NaN, 0x7fbadbad
    for integers (its low byte, 0xad, for int8 and uint8), and the byte 0xad for bool (neither False's 0
    nor True's 1, so a comparison with torch's answer fails there whichever it is)."""
    dtype_ = dtype or float32
    shape = _sizes("empty", size, kwargs)
    on_gpu = _on_gpu_filled(shape, dtype_, device, _math_module.nan, requires_grad)
    if on_gpu is not None:
        return on_gpu
    data = _storage(dtype_, shape)
    # A bool's writer stores value != 0; the poison byte is written as the uint8 it is (the same storage).
    _js.fillValue(data, "uint8" if dtype_ is _dtypes.bool_ else dtype_.name, _math_module.nan if dtype_.kind == "float" else 0x7FBADBAD)
    return _create(data, dtype_, shape, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False, **kwargs):
    _not_implemented.refuse_keywords("torch.full", kwargs, "size, fill_value, dtype, device, requires_grad")
    if dtype is None:
        dtype = _dtypes.bool_ if isinstance(fill_value, _builtin_bool) else int64 if isinstance(fill_value, _builtin_int) else float32
    shape = _shape_of((size,))
    on_gpu = _on_gpu_filled(shape, dtype, device, fill_value, requires_grad)
    if on_gpu is not None:
        return on_gpu
    data = _storage(dtype, shape)
    _js.fillValue(data, dtype.name, _builtin_float(fill_value))
    return _create(data, dtype, shape, device, requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    return full(_sizes("zeros", size, kwargs), 0, dtype=dtype or float32, device=device, requires_grad=requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    return full(_sizes("ones", size, kwargs), 1, dtype=dtype or float32, device=device, requires_grad=requires_grad)


empty_like = _like("empty_like", lambda s, **k: empty(s, **k))
zeros_like = _like("zeros_like", lambda s, **k: zeros(s, **k))
ones_like = _like("ones_like", lambda s, **k: ones(s, **k))


def full_like(t, fill_value, dtype=None, device=None, requires_grad=False, **kwargs):
    _not_implemented.refuse_keywords("torch.full_like", kwargs, "fill_value, dtype, device, requires_grad")
    return full(t.shape, fill_value, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def _random(kind, shape, dtype_, device_, low=0, high=1, requires_grad=False):
    if _dtypes.as_device(device_).type == "cuda":
        drawn = _on_gpu.random(kind, dtype_, shape)
        if drawn is not None:
            drawn.requires_grad = requires_grad
            return drawn
    n = 1
    for s in shape:
        n *= s
    return _create(_js.random(kind, n, dtype_.name, low, high), dtype_, shape, device_, requires_grad)


def rand(*size, dtype=None, device=None, requires_grad=False, generator=None, **kwargs):
    return _random("rand", _sizes("rand", size, kwargs), dtype or float32, device, requires_grad=requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False, generator=None, **kwargs):
    return _random("randn", _sizes("randn", size, kwargs), dtype or float32, device, requires_grad=requires_grad)


def rand_like(t, dtype=None, device=None, requires_grad=False, **kwargs):
    _not_implemented.refuse_keywords("torch.rand_like", kwargs, "dtype, device, requires_grad")
    return rand(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def randn_like(t, dtype=None, device=None, requires_grad=False, **kwargs):
    _not_implemented.refuse_keywords("torch.randn_like", kwargs, "dtype, device, requires_grad")
    return randn(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def randint(low, high=None, size=None, dtype=None, device=None, **kwargs):
    kwargs.pop("generator", None)  # as rand's: Kernel Lab's stream is its own, seeded by manual_seed
    _not_implemented.refuse_keywords("torch.randint", kwargs, "low, high, size, dtype, device, generator")
    if size is None and not isinstance(high, (_b.int, _b.float)) and high is not None:
        # torch.randint(high, size): low is 0 (mamba's layer_norm.py draws its dropout seeds so)
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    return _random("randint", _shape_of((size,)), dtype or int64, device, low, high)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False, **kwargs):
    _not_implemented.refuse_keywords("torch.arange", kwargs, "start, end, step, dtype, device, requires_grad")
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = float32 if _b.any(isinstance(v, _builtin_float) for v in (start, end, step)) else int64
    n = _b.max(0, _math_module.ceil((end - start) / step))
    return _create(_js.arange(start, step, n, dtype.name), dtype, (n,), device, requires_grad)


def linspace(start, end, steps, dtype=None, device=None, **kwargs):
    _not_implemented.refuse_keywords("torch.linspace", kwargs, "start, end, steps, dtype, device")
    step = (end - start) / (steps - 1) if steps > 1 else 0
    return _create(_js.arange(start, step, steps, (dtype or float32).name), dtype or float32, (steps,), device)


def tensor(data, dtype=None, device=None, requires_grad=False, **kwargs):
    _not_implemented.refuse_keywords("torch.tensor", kwargs, "data, dtype, device, requires_grad")
    if isinstance(data, Tensor):
        return data.clone().to(dtype or data.dtype, device or data.device)
    shape, flat = [], []

    def walk(x, depth):
        # A range is a sequence too (fla's retention: `q.new_tensor(range(H), dtype=torch.float)`).
        if isinstance(x, range):
            x = list(x)
        if isinstance(x, (list, tuple)):
            if len(shape) <= depth:
                shape.append(len(x))
            elif shape[depth] != len(x):
                raise ValueError(f"expected sequence of length {shape[depth]} at dim {depth} (got {len(x)})")
            for item in x:
                walk(item, depth + 1)
        else:
            flat.append(x.item() if isinstance(x, Tensor) else x)

    walk(data, 0)
    if dtype is None:
        dtype = float32 if _b.any(isinstance(v, _builtin_float) for v in flat) else _dtypes.bool_ if flat and _b.all(isinstance(v, _builtin_bool) for v in flat) else int64
    _fits_32_bits(flat, dtype)
    from pyodide.ffi import to_js
    return _create(_js.fromValues(to_js([_builtin_float(v) for v in flat]), dtype.name), dtype, tuple(shape), device, requires_grad)


as_tensor = tensor


def _fits_32_bits(values, dtype):
    """
    torch.int32 and torch.int64 values as Kernel Lab holds them, in 32 bits (docs/LANGUAGE.md §2.9): one past them is
    refused as torch refuses an int32 that overflows, rather than kept as its low word (Triton's test_rand_limits
    made a torch.int64 tensor of [iinfo.min, iinfo.max], which read back [0, 0]).
    """
    if dtype is not _dtypes.int32 and dtype is not int64:
        return
    for v in values:
        if isinstance(v, _builtin_bool) or (isinstance(v, _builtin_float) and not _math_module.isfinite(v)):
            continue
        if not -2**31 <= int(v) <= 2**31 - 1:
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow: {v} (Kernel Lab holds torch.{dtype.name} in 32 bits, "
                               "as its kernels take 32-bit integers; docs/LANGUAGE.md §2.9)")


def _fill_random(t, kind, a, b):
    """In place, from Kernel Lab's generator (drawn in float32, then rounded to the tensor's dtype)."""
    drawn = _random(kind, t.shape, float32, t.device)
    return t._assign(t, drawn * b + a if kind == "randn" else drawn * (b - a) + a)


# Tensor.normal_ / uniform_ (tutorial 06 fills its inputs with normal_).
Tensor.normal_ = lambda self, mean=0.0, std=1.0, generator=None: _fill_random(self, "randn", mean, std)
Tensor.uniform_ = lambda self, a=0.0, b=1.0, generator=None: _fill_random(self, "rand", a, b)


def _new(make):
    # x.new_empty(size, dtype=…): torch's creation function with x's dtype and device by default (unsloth's fp8 matmul).
    def new(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        return make(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad, **kwargs)
    return new


Tensor.new_empty = _new(empty)
Tensor.new_zeros = _new(zeros)
Tensor.new_ones = _new(ones)
Tensor.new_full = lambda self, size, fill_value, dtype=None, device=None, requires_grad=False: full(
    size, fill_value, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
Tensor.new_tensor = lambda self, data, dtype=None, device=None, requires_grad=False: tensor(
    data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
