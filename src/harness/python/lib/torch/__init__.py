# Kernel Lab's torch: the part of PyTorch that Triton's tutorials and kernel tests use on the host
# (README: Triton in Python, the torch subset; test/unit/python-subset.test.ts keeps that table
# true). Tensors on the GPU device are passed to kernels by their storage, and torch's ops on them
# run as GPU kernels where Kernel Lab has one (_on_gpu.py); every other op runs in JS on the CPU,
# exactly (double precision, rounded once to the dtype). Anything missing raises
# NotImplementedError naming it: a script never gets a wrong answer from a stand-in.

import builtins as _b
import math as _math_module

import _kernel_lab_ops as _js
import _kernel_lab_state as _state

from . import _dtypes
from . import _on_gpu
from ._dtypes import dtype, device, float32, float16, bfloat16, int32, int64, int8, uint8, uint32, float8_e4m3fn, float8_e5m2
from ._dtypes import bool_ as bool  # noqa: A001 (torch.bool)
from ._tensor import Tensor, Size, not_implemented
from ._like import _like
from . import _not_implemented
from . import _math
from ._info import finfo, iinfo
from ._math import broadcast_shapes, matmul, where, clamp
clip = clamp
clamp_min = lambda x, min: clamp(x, min, None)  # noqa: E731
clamp_max = lambda x, max: clamp(x, None, max)  # noqa: E731
from ._einsum import einsum
from . import _autograd as autograd
from ._autograd import no_grad, enable_grad, inference_mode, set_grad_enabled, is_grad_enabled
from . import testing, cuda, nn, backends, distributed, version, amp, compiler, _C, _dynamo, library, utils, jit, profiler
from ._C import Tag  # noqa: E402,F401 (torch.Tag, as torch re-exports torch._C.Tag)
from ._ops import ops
from .amp import autocast, is_autocast_enabled, get_autocast_dtype
from ._like import contiguous_format, preserve_format, memory_format  # noqa: E402,F401
# The device module of the device type triton's target names (`get_current_target().backend` is
# "webgpu", and torch.device("webgpu") is the GPU): libraries reach it as getattr(torch, backend).
webgpu = cuda
from ._legacy_types import FloatTensor, HalfTensor, BFloat16Tensor, IntTensor, LongTensor, CharTensor, ByteTensor, BoolTensor  # noqa: F401

float = float32  # noqa: A001
half = float16
int = int32  # noqa: A001 (torch.int is int32)
long = int64
float64 = None  # set below: Kernel Lab has no float64 tensors
double = None
__version__ = "2.5.0+kernellab"
# torch's constants (SpargeAttn writes torch.inf where Python's math.inf would do).
from math import inf, nan, pi, e  # noqa: E402,F401


class _Missing(dtype):
    """
    A torch dtype Kernel Lab has no tensors of: it can be named and compared (`q.dtype ==
    torch.float8_e4m3fnuz` is False, as tutorial 06's host code asks of float8_e5m2), and anything else says so.
    """
    kernel_lab_missing = True  # read off the class: _not_implemented.refuse_missing_dtype

    def __init__(self, name, itemsize, why):
        super().__init__(name, "float", itemsize)
        object.__setattr__(self, "_why", why)

    def __getattribute__(self, name):
        if name in ("__class__", "__repr__", "name", "_why"):
            return object.__getattribute__(self, name)
        not_implemented(f"torch.{object.__getattribute__(self, 'name')} ({object.__getattribute__(self, '_why')})")


float64 = double = _Missing("float64", 8, "Kernel Lab's tensors are float32, float16, bfloat16, int32, int64, int8, uint8, uint32, bool, float8_e4m3fn or float8_e5m2")
# Kernel Lab builds fp8 e4m3fn and e5m2 (ir/f8.ts), not these.
int16 = short = _Missing("int16", 2, "Kernel Lab's tensors are float32, float16, bfloat16, int32, int64, int8, uint8, uint32, bool, float8_e4m3fn or float8_e5m2")
# Named at import by kernel libraries' dtype tables (gemlite's dtypes.py maps every torch dtype to Triton's).
float8_e4m3fnuz = _Missing("float8_e4m3fnuz", 1, "WGSL has no 8-bit floats; Kernel Lab's fp8 tensors are float8_e4m3fn and float8_e5m2")
float8_e5m2fnuz = _Missing("float8_e5m2fnuz", 1, "WGSL has no 8-bit floats; Kernel Lab's fp8 tensors are float8_e4m3fn and float8_e5m2")
float8_e8m0fnu = _Missing("float8_e8m0fnu", 1, "WGSL has no 8-bit floats; Kernel Lab's fp8 tensors are float8_e4m3fn and float8_e5m2")
uint16 = _Missing("uint16", 2, "Kernel Lab's tensors are float32, float16, bfloat16, int32, int64, int8, uint8, uint32, bool, float8_e4m3fn or float8_e5m2")
uint64 = _Missing("uint64", 8, "Kernel Lab's tensors are float32, float16, bfloat16, int32, int64, int8, uint8, uint32, bool, float8_e4m3fn or float8_e5m2")


def _kernel_lab_reset():
    """A new run of a script (the Python thread runs one after another): nothing of the last one is left."""
    import sys as _sys
    _js.seed(0)
    random._reset()
    autograd._enabled[:] = [True]
    _deterministic.update(enabled=False, warn_only=False)
    _matmul_precision[0] = "highest"
    on_gpu = _sys.modules.get("torch._on_gpu")
    if on_gpu is not None:
        on_gpu._said.clear()
        on_gpu.seed(0)


# torch.manual_seed, torch.seed… are torch.random's (random.py: the one generator a script has).
from . import random  # noqa: E402
from .random import manual_seed, seed, initial_seed, get_rng_state, set_rng_state  # noqa: E402,F401


# This module's own `int`, `float`, `bool`, `max`, `sum`… are torch's; Python's are these.
_builtin_int, _builtin_float, _builtin_bool = _b.int, _b.float, _b.bool


from ._creation import (  # noqa: E402,F401
    empty, full, zeros, ones, empty_like, zeros_like, ones_like, full_like, rand, randn, rand_like, randn_like,
    randint, arange, linspace, tensor, as_tensor, _storage, _create,
)


def promote_types(type1, type2):
    """torch.promote_types for Kernel Lab's dtypes (FlagGems' cat promotes its inputs' dtypes with it)."""
    if {type1, type2} == {int8, uint8}:
        not_implemented("torch.promote_types(torch.int8, torch.uint8) (torch's answer is int16, which Kernel Lab has no tensors of)")
    return _dtypes.promote(type1, type2)


def is_tensor(x):
    return isinstance(x, Tensor)


def is_floating_point(x):
    return x.is_floating_point()


def is_complex(x):
    return x.is_complex()


# -- functions over tensors (torch.add, torch.max …) ---------------------------------------------------
def _method(name):
    # torch.add(input=a, other=b, out=c) as Liger writes it, as well as torch.add(a, b).
    def call(*args, out=None, **kwargs):
        if "input" in kwargs:
            x = kwargs.pop("input")
        elif args:
            x, args = args[0], args[1:]
        else:
            raise TypeError(f"torch.{name}() missing its input tensor")
        result = getattr(x, name)(*args, **kwargs)
        return result if out is None else _write_out(name, out, result)
    call.__name__ = name
    return call


def _write_out(name, out, result):
    """`out=`: the result written into `out` (of the result's shape), which is returned."""
    if tuple(out.shape) != tuple(result.shape):
        not_implemented(f"torch.{name}(out=…) into a tensor of another shape (out is {list(out.shape)}, the result {list(result.shape)})")
    return out._assign(out, result)


for _name in ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "abs", "neg", "floor", "ceil",
              "round", "trunc", "reciprocal", "square", "sign", "logical_not", "isnan", "isinf", "relu", "sum", "mean", "prod",
              "any", "all", "var", "std", "amax", "amin", "argmax", "argmin", "softmax", "log_softmax", "cumsum", "flatten", "unflatten", "reshape",
              "sort", "argsort", "topk", "bincount", "broadcast_to", "permute", "transpose", "t", "unsqueeze", "squeeze", "clone", "add", "sub", "mul",
              "div", "pow", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "remainder", "maximum", "minimum", "chunk", "split", "tensor_split", "narrow", "mm",
              "matmul", "mv", "addmm", "addmv", "addcmul", "addcdiv", "masked_fill",
              "asin", "acos", "atan", "sinh", "cosh", "log1p", "expm1", "log10", "lgamma", "erfc"]:
    globals()[_name] = _method(_name)
del _name

erf = lambda x: _math.unary("erf", x)  # noqa: E731
from . import special  # noqa: E402
var_mean = _math.var_mean
std_mean = _math.std_mean
subtract = sub  # noqa: F821
multiply = mul  # noqa: F821
divide = div  # noqa: F821
bmm = matmul
_disable_dynamo = compiler.disable  # torch's older spelling (unsloth's fast_lora, cross_entropy_loss)
conv2d = nn.functional.conv2d


def max(x, dim=None, keepdim=False):  # noqa: A001
    return _math.max_or_min("max", x, dim, keepdim)


def min(x, dim=None, keepdim=False):  # noqa: A001
    return _math.max_or_min("min", x, dim, keepdim)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return testing._allclose(a, b, rtol, atol, equal_nan)


def equal(a, b):
    """The same shape and the same elements (Liger's backward tests `torch.equal(grad_output, torch.tensor(1.0))`)."""
    return tuple(a.shape) == tuple(b.shape) and _builtin_bool((a == b).all().item())


def logsumexp(input, dim, keepdim=False, out=None):
    """log(sum(exp(x))) along dim, shifted by the max as torch's (unsloth's chunked cross-entropy
    sums its chunks' logsumexps so); a slice that is all -inf gives -inf, all +inf gives +inf."""
    x = input if input.dtype.kind == "float" else input.float()
    dims = sorted({x._axis(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))}, reverse=True)
    m = x
    for d in dims:
        m = m.amax(dim=d, keepdim=True)
    shift = where(isinf(m), zeros_like(m), m)
    total = (x - shift).exp()
    for d in dims:
        total = total.sum(dim=d, keepdim=True)
    result = total.log() + shift
    if not keepdim:
        for d in dims:
            result = result.squeeze(d)
    return result if out is None else _write_out("logsumexp", out, result)


Tensor.logsumexp = lambda self, dim, keepdim=False: logsumexp(self, dim, keepdim)


def _masked_fill(x, mask, value):
    if mask.dtype is not _dtypes.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {mask.dtype.name}")
    return where(mask, value, x).to(x.dtype)


# x.masked_fill(mask, v): v where the (broadcast) mask is True (unsloth's `losses.masked_fill_(labels == -100, 0)`).
Tensor.masked_fill = _masked_fill
Tensor.masked_fill_ = lambda self, mask, value: self._assign(self, _masked_fill(self, mask, value))
# x.where(condition, y): torch.where(condition, x, y) (MInference's `p_pool.where(arange_M[...] >= arange_N[...], -torch.inf)`).
Tensor.where = lambda self, condition, other: where(condition, self, other)


def count_nonzero(x, dim=None):
    """How many elements are not zero, as an int64 tensor (unsloth's `torch.count_nonzero(labels != -100)`)."""
    nonzero = (x != 0).to(int64)
    return nonzero.sum() if dim is None else nonzero.sum(dim=dim)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    diff = (a - b).abs()
    return diff <= atol + rtol * b.abs()


def cat(tensors, dim=0):
    tensors = [t for t in tensors if t.numel() > 0 or t.dim() > 1]
    axis = tensors[0]._axis(dim)
    shape = list(tensors[0].shape)
    shape[axis] = _b.sum(t.shape[axis] for t in tensors)
    out = empty(*shape, dtype=tensors[0].dtype, device=tensors[0].device)
    at = 0
    for t in tensors:
        out.narrow(axis, at, t.shape[axis])[...] = t
        at += t.shape[axis]
    return out


concat = concatenate = cat


def stack(tensors, dim=0):
    return cat([t.unsqueeze(dim) for t in tensors], dim)


def empty_strided(size, stride, dtype=None, device=None, requires_grad=False, **kwargs):
    """A tensor of `size` with `stride` over a storage just long enough (torch.compile's output code allocates
    its buffers so, padded rows included); its elements are torch.empty's poison until written."""
    size, stride = tuple(_b.int(s) for s in size), tuple(_b.int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape: {len(stride)} strides for {len(size)} sizes")
    length = 0 if 0 in size else 1 + _b.sum((n - 1) * s for n, s in zip(size, stride))
    base = empty(length, dtype=dtype, device=device, requires_grad=requires_grad, **kwargs)
    return base.as_strided(size, stride, 0)


def synchronize():
    pass


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, disable=False):  # noqa: A001
    """The function (or module) as it is, run eagerly, as torch runs it with TorchDynamo disabled
    (TORCHDYNAMO_DISABLE=1): eager's results are the ones a compiled function must give. As torch's,
    `@torch.compile` and `@torch.compile(mode=…)` both decorate (fla's activations.py compiles its gelu)."""
    if model is None:
        return lambda fn: fn
    return model


# torch.use_deterministic_algorithms is a flag libraries read (mamba's determinism.py keeps one
# autotune config when it is on); Kernel Lab's own torch ops give the same answer either way.
_deterministic = {"enabled": False, "warn_only": False}


def use_deterministic_algorithms(mode, *, warn_only=False):
    _deterministic.update(enabled=_builtin_bool(mode), warn_only=_builtin_bool(warn_only))


def are_deterministic_algorithms_enabled():
    return _deterministic["enabled"]


def is_deterministic_algorithms_warn_only_enabled():
    return _deterministic["warn_only"]


# torch.set_float32_matmul_precision("high") lets torch use TF32 (apple/ml-cross-entropy picks tl.dot's
# input_precision from it); Kernel Lab's torch matmul is exact float math at every setting, as backends.py's flags.
_matmul_precision = ["highest"]


def get_float32_matmul_precision():
    return _matmul_precision[0]


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"set_float32_matmul_precision takes 'highest', 'high' or 'medium', not {precision!r}")
    _matmul_precision[0] = precision


def get_default_dtype():
    return float32


def set_default_dtype(d):
    if d is not float32:
        not_implemented("torch.set_default_dtype (other than float32)")




def __getattr__(name):
    not_implemented(f"torch.{name}")


# `import torch.fft`: a submodule Kernel Lab's torch has no file for is refused by name, as its names are.
_not_implemented.install_missing_submodules()


def _tensor_getattr(self, name):
    # Reached only for a name Tensor lacks: a torch.Tensor method outside the subset (x.repeat, x.scatter_).
    if name.startswith("_"):
        raise AttributeError(name)
    not_implemented(f"torch.Tensor.{name}")


Tensor.__getattr__ = _tensor_getattr

# diff, repeat_interleave, flip, nonzero, div's rounding_mode (_along_dim.py).
from . import _along_dim  # noqa: E402
_along_dim.install()
diff, repeat_interleave, flip, nonzero = _along_dim.diff, _along_dim.repeat_interleave, _along_dim.flip, _along_dim.nonzero

# triu, tril and their Tensor methods (_triangle.py).
from . import _triangle  # noqa: E402
_triangle.install()
triu, tril = _triangle.triu, _triangle.tril

# Views, copies and casts carry the gradient of a tensor that requires grad (_view_grad.py).
from . import _view_grad  # noqa: E402
_view_grad.install()
