# Element-wise operators, reductions, matmul and softmax: torch's rules for the result's dtype
# (promotion, true division, comparisons give bool) and shape (broadcasting) are decided here. On
# GPU tensors the op runs as a GPU kernel where it has one (_on_gpu.py); otherwise the element
# loops run in JS (tensor-ops.ts). Installed on Tensor at the end of the file.

import _kernel_lab_ops as _js
from pyodide.ffi import to_js

from . import _dtypes as D
from . import _on_gpu
from ._tensor import Tensor, Size, not_implemented
from ._autograd import needs_grad, refuse_grad

_COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"}
_FLOAT_UNARY = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "silu", "gelu", "gelu_tanh", "erf", "reciprocal",
                "asin", "acos", "atan", "sinh", "cosh", "log1p", "expm1", "log10", "lgamma", "erfc", "erfcx"}


def broadcast_shapes(*shapes):
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for axis in range(rank):
        extent = 1
        for s in shapes:
            own = axis - (rank - len(s))
            e = s[own] if own >= 0 else 1
            if e != 1:
                if extent not in (1, e):
                    raise RuntimeError(f"The size of tensor a ({extent}) must match the size of tensor b ({e}) at non-singleton dimension {axis}")
                extent = e
        out.append(extent)
    return Size(out)


def _device_of(*xs):
    devices = {x.device for x in xs if isinstance(x, Tensor) and x.dim() > 0}
    if len(devices) > 1:
        raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!")
    return next(iter(devices), next((x.device for x in xs if isinstance(x, Tensor)), D.device("cpu")))


def _result_dtype(a, b):
    """torch.result_type: 0-d tensors and Python numbers count only by kind, as in torch."""
    dims = [x for x in (a, b) if isinstance(x, Tensor) and x.dim() > 0]
    zero = [x for x in (a, b) if isinstance(x, Tensor) and x.dim() == 0]
    numbers = [x for x in (a, b) if not isinstance(x, Tensor)]
    if dims:
        dtype = dims[0].dtype if len(dims) == 1 else D.promote(dims[0].dtype, dims[1].dtype)
        for z in zero:
            dtype = D.promote_with_scalar(dtype, {"float": 1.0, "int": 1, "bool": True}[z.dtype.kind])
    elif zero:
        dtype = zero[0].dtype if len(zero) == 1 else D.promote(zero[0].dtype, zero[1].dtype)
    else:
        dtype = D.float32 if any(isinstance(n, float) for n in numbers) else D.int64
    for n in numbers:
        dtype = D.promote_with_scalar(dtype, n)
    return dtype


def _operand(x):
    if isinstance(x, Tensor):
        return x._view()
    if isinstance(x, (bool, int, float)):
        return float(x)
    not_implemented(f"an operand of type {type(x).__name__}")


def _shape(x):
    return x.shape if isinstance(x, Tensor) else ()


def binary(op, a, b):
    if op in ("add", "sub") and needs_grad(a, b):
        return _sum_with_grad(op, a, b)
    if op == "mul" and needs_grad(a, b):
        return _product_with_grad(a, b)
    if op not in _COMPARISONS:  # a comparison has no gradient in torch: its result never requires one
        refuse_grad(f"torch.{op}", a, b)
    dtype = _result_dtype(a, b)
    if op == "div" or (op == "pow" and dtype.kind != "float" and any(isinstance(x, float) for x in (a, b))):
        dtype = dtype if dtype.kind == "float" else D.float32
    if op in ("floordiv", "remainder") and dtype.kind == "int":
        divisor = b if not isinstance(b, Tensor) else None
        if divisor == 0:
            raise ZeroDivisionError("ZeroDivisionError")
    if op.startswith("bitwise") or op.startswith("shift"):
        if dtype.kind == "float":
            raise RuntimeError(f"\"{op}\" not implemented for '{dtype.name}'")
    shape = broadcast_shapes(_shape(a), _shape(b))
    out_dtype = D.bool_ if op in _COMPARISONS else dtype
    device = _device_of(a, b)
    if device.type == "cuda":
        out = _on_gpu.binary(op, a, b, out_dtype, shape)
        if out is not None:
            return out
        _on_cpu(f"torch.{op}", a, b)
    data = _js.binary(op, _operand(a), _operand(b), to_js(list(shape)), out_dtype.name)
    return Tensor._make(data, out_dtype, shape, device=device)


def _in_place(op, self, other):
    """self op= other. Where a gradient is wanted, as torch records an in-place op: the result's
    node takes self's place in the graph (self's earlier node becomes its input)."""
    if not needs_grad(self, other):
        return self._assign(self, binary(op, self, other))
    from ._autograd import _grad_mode
    if self.requires_grad and self.grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    # A product's backward reads both sides' values (_product_with_grad): self's before the op, kept apart from the
    # storage the result is written into.
    before = self.detach().clone() if op == "mul" else self.detach()
    before.requires_grad, before.grad_fn, before._output_nr = self.requires_grad, self.grad_fn, getattr(self, "_output_nr", 0)
    out = binary(op, before, other)  # refuses the ops with no backward here
    with _grad_mode(False):
        self._assign(self, out)
    self.requires_grad, self.grad_fn, self._output_nr = True, out.grad_fn, 0
    return self


def _product_with_grad(a, b):
    """a * b where one requires grad: each side's gradient is the other side times g, summed over the
    dims it was broadcast along (scattermoe's GLUMLP: `h = self.activation(gates) * h`)."""
    from ._autograd import _grad_mode, attach
    from ._view_grad import _unbroadcast
    with _grad_mode(False):
        out = binary("mul", a, b)
    sides = [(x, other) for x, other in ((a, b), (b, a)) if isinstance(x, Tensor)]

    def backward(g):
        return [_unbroadcast(x, out, g * other, (), {}).to(x.dtype) for x, other in sides]
    return attach(out, "MulBackward0", [x for x, _ in sides], backward)


def _sum_with_grad(op, a, b):
    """a + b, a - b of tensors that require grad: the gradient passes to each, summed over the dims
    it was broadcast along (lightning-attention's `o = 0; o += fn(q1, k1, v)` over head slices)."""
    from ._autograd import _grad_mode, attach
    from ._view_grad import _unbroadcast
    with _grad_mode(False):
        out = binary(op, a, b)
    signed = [(x, -1 if op == "sub" and i == 1 else 1) for i, x in enumerate((a, b)) if isinstance(x, Tensor)]

    def backward(g):
        grads = [_unbroadcast(x, out, g, (), {}).to(x.dtype) for x, _ in signed]
        return [-gx if sign < 0 else gx for gx, (_, sign) in zip(grads, signed)]
    inputs = [x for x, _ in signed]
    return attach(out, "AddBackward0" if op == "add" else "SubBackward0", inputs, backward)


def _on_cpu(name, *tensors):
    """An op on GPU tensors with no GPU kernel here: computed on the CPU (its operands read back first)."""
    if any(isinstance(t, Tensor) and t.device.type == "cuda" for t in tensors):
        _on_gpu.left_out(name)


def unary(op, x):
    if op not in ("logical_not", "isnan", "isinf"):  # results without a gradient in torch
        refuse_grad(f"torch.{op}", x)
    dtype = x.dtype
    if op in _FLOAT_UNARY and dtype.kind != "float":
        dtype = D.float32
    if op in ("logical_not", "isnan", "isinf"):
        dtype = D.bool_
    if x.device.type == "cuda" and x.dtype.kind == "float":
        out = _on_gpu.unary(op, x, dtype)
        if out is not None:
            return out
    if x.device.type == "cuda" and op == "logical_not":
        # ~mask, torch.logical_not: x == 0, a comparison kernel.
        out = _on_gpu.binary("eq", x, 0, D.bool_, x.shape)
        if out is not None:
            return out
    _on_cpu(f"torch.{op}", x)
    return Tensor._make(_js.unary(op, x._view(), dtype.name), dtype, x.shape, device=x.device)


def where(condition, a, b):
    refuse_grad("torch.where", a, b)
    shape = broadcast_shapes(_shape(condition), _shape(a), _shape(b))
    dtype = _result_dtype(a, b)
    if _device_of(condition, a, b).type == "cuda":
        out = _on_gpu.where(condition, a, b, dtype, shape)
        if out is not None:
            return out
    _on_cpu("torch.where", condition, a, b)
    return Tensor._make(_js.where(_operand(condition), _operand(a), _operand(b), to_js(list(shape)), dtype.name), dtype, shape, device=_device_of(condition, a, b))


def _axes(x, dim):
    if dim is None:
        return list(range(x.dim()))
    dims = dim if isinstance(dim, (tuple, list)) else [dim]
    return sorted({x._axis(d) for d in dims}) if x.dim() else []


def reduce(op, x, dim=None, keepdim=False, dtype=None):
    refuse_grad(f"torch.{op}", x)
    axes = _axes(x, dim)
    if op in ("argmax", "argmin") and dim is None:
        x, axes = x.reshape(-1), [0]
    out_dtype = dtype or x.dtype
    if op in ("mean", "var") and out_dtype.kind != "float":
        raise RuntimeError(f"{op}(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {x.dtype.name.capitalize()}")
    if op in ("sum", "prod") and x.dtype.kind != "float" and dtype is None:
        out_dtype = D.int64
    if op in ("argmax", "argmin"):
        out_dtype = D.int64
    if op in ("any", "all"):
        out_dtype = D.bool_
    if x.numel() == 0 and op in ("max", "min", "argmax", "argmin"):
        raise RuntimeError(f"{op}(): Expected reduction dim to be specified for input.numel() == 0.")
    kept = [e for i, e in enumerate(x.shape) if i not in axes]
    out = _on_gpu.reduce(op, x, axes, out_dtype) if x.device.type == "cuda" else None
    if out is None:
        _on_cpu(f"torch.{op}", x)
        data = _js.reduce(op, x._view(), to_js(axes), out_dtype.name)
        out = Tensor._make(data, out_dtype, kept, device=x.device)
    if keepdim:
        out = out.reshape(*[1 if i in axes else e for i, e in enumerate(x.shape)])
    return out


def var(x, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None):
    """torch.var: Bessel's correction by default (correction=1, or unbiased=True); correction=0 or unbiased=False for the population variance."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim  # torch.var(x, False): the legacy unbiased flag by position
    dim = axis if dim is None else dim
    c = correction if correction is not None else (0 if unbiased is False else 1)
    out = reduce("var", x, dim, keepdim)
    n = 1
    for a in _axes(x, dim):
        n *= x.shape[a]
    # One element with the correction: 0 * inf, NaN as in torch.
    return out * (n / (n - c) if n > c else float("inf")) if c else out


def std(x, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None):
    """torch.std: the square root of torch.var, with its arguments (Bessel's correction by default; test_random.py's `x.std()`)."""
    return var(x, dim, unbiased, keepdim, correction=correction, axis=axis).sqrt()


def var_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None):
    """torch.var_mean: (var, mean) over the same axes (test_core.py's test_generic_reduction, `correction=0`)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    dim = axis if dim is None else dim
    mean = reduce("mean", x, dim, keepdim)
    return var(x, dim, unbiased, keepdim, correction=correction), mean


def std_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None):
    """torch.std_mean: (std, mean)."""
    v, mean = var_mean(x, dim, unbiased, keepdim, correction=correction, axis=axis)
    return v.sqrt(), mean


class _MinMax(tuple):
    """torch.max(x, dim) and torch.sort give (values, indices)."""

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]


def max_or_min(op, x, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return binary("maximum" if op == "max" else "minimum", x, dim)
    if dim is None:
        return reduce(op, x)
    return _MinMax((reduce(op, x, dim, keepdim), reduce("arg" + op, x, dim, keepdim)))


def softmax(x, dim=-1, dtype=None, log=False):
    refuse_grad("torch.softmax", x)
    axis = x._axis(dim)
    moved = x.transpose(axis, -1) if axis != x.dim() - 1 else x
    out_dtype = dtype or (x.dtype if x.dtype.kind == "float" else D.float32)
    out = _on_gpu.softmax(moved, out_dtype) if x.device.type == "cuda" and not log else None
    if out is None:
        _on_cpu("torch.log_softmax" if log else "torch.softmax", x)
        data = _js.softmax(moved._view(), log, out_dtype.name)
        out = Tensor._make(data, out_dtype, moved.shape, device=x.device)
    return out.transpose(axis, -1).contiguous() if axis != x.dim() - 1 else out


def scan(op, x, dim):
    _on_cpu(f"torch.{op}", x)
    axis = x._axis(dim)
    moved = x.transpose(axis, -1) if axis != x.dim() - 1 else x
    dtype = x.dtype if x.dtype.kind == "float" else D.int64
    out = Tensor._make(_js.scan(op, moved._view(), dtype.name), dtype, moved.shape, device=x.device)
    return out.transpose(axis, -1).contiguous() if axis != x.dim() - 1 else out


def sort(x, dim=-1, descending=False, stable=False):
    """Along one axis, stable (equal elements keep their order), NaN above every number as in torch;
    on the CPU (Liger's sparsemax sorts each row before its kernel)."""
    refuse_grad("torch.sort", x)
    _on_cpu("torch.sort", x)
    axis = x._axis(dim) if x.dim() else 0
    last = x.dim() <= 1 or axis == x.dim() - 1
    moved = x if last else x.transpose(axis, -1)
    pair = _js.sort(moved._view(), bool(descending))
    values = Tensor._make(pair[0], x.dtype, moved.shape, device=x.device)
    indices = Tensor._make(pair[1], D.int64, moved.shape, device=x.device)
    if not last:
        values, indices = values.transpose(axis, -1).contiguous(), indices.transpose(axis, -1).contiguous()
    return _MinMax((values, indices))


def bincount(x, weights=None, minlength=0):
    """How often each value of a 1-D tensor of non-negative integers occurs (or its weights' sum), at
    least minlength counts; int64, or float32 with float32 weights, as torch's (which gives float64 for
    other weights: no float64 here); on the CPU (scattermoe's flatten_sort_count counts its tokens per
    expert with it)."""
    if weights is not None:
        refuse_grad("torch.bincount", weights)
        if weights.dtype is not D.float32:
            not_implemented(f"torch.bincount with {weights.dtype.name} weights (a float64 result in torch)")
    _on_cpu("torch.bincount", x, *([weights] if weights is not None else []))
    if x.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if x.dtype.kind == "float" or x.dtype is D.bool_:
        raise RuntimeError(f'"bincount_cpu" not implemented for \'{x.dtype.name.capitalize()}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    values = x.tolist()
    if any(v < 0 for v in values):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and tuple(weights.shape) != tuple(x.shape):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    amounts = weights.tolist() if weights is not None else [1] * len(values)
    counts = [0] * max(max(values, default=-1) + 1, minlength)
    for v, amount in zip(values, amounts):
        counts[v] += amount
    dtype = D.int64 if weights is None else D.float32
    import torch
    return torch.tensor(counts, dtype=dtype, device=x.device)


def topk(x, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    """The k largest (smallest) along one axis, in order, by the stable sort above (equal values keep
    their index order; torch leaves that unspecified); on the CPU (sglang's double sparsity picks its
    heavy tokens with it)."""
    refuse_grad("torch.topk", x)
    axis = x._axis(dim) if x.dim() else 0
    size = x.shape[axis] if x.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    values, indices = sort(x, axis, descending=largest, stable=True)
    if not x.dim():
        return _MinMax((values, indices))
    return _MinMax((values.narrow(axis, 0, k).contiguous(), indices.narrow(axis, 0, k).contiguous()))


def matmul(a, b):
    refuse_grad("torch.matmul", a, b)
    if a.dim() == 0 or b.dim() == 0:
        raise RuntimeError("both arguments to matmul need to be at least 1D")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {a.dtype.name} != {b.dtype.name}")
    squeeze_a, squeeze_b = a.dim() == 1, b.dim() == 1
    a2 = a.unsqueeze(0) if squeeze_a else a
    b2 = b.unsqueeze(-1) if squeeze_b else b
    m, k = a2.shape[-2], a2.shape[-1]
    k2, n = b2.shape[-2], b2.shape[-1]
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})")
    batch = broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    count = batch.numel()
    av = a2.expand(*batch, m, k).reshape(count, m, k) if batch else a2.reshape(1, m, k)
    bv = b2.expand(*batch, k, n).reshape(count, k, n) if batch else b2.reshape(1, k, n)
    device = _device_of(a, b)
    out = _on_gpu.matmul(av, bv, count, m, k, n) if device.type == "cuda" else None
    if out is not None:
        out = out.view(*batch, m, n)
    else:
        _on_cpu("torch.matmul", a, b)
        data = _js.matmul(av._view(), bv._view(), count, m, k, n, a.dtype.name)
        out = Tensor._make(data, a.dtype, (*batch, m, n), device=device)
    if squeeze_a:
        out = out.squeeze(-2)
    if squeeze_b:
        out = out.squeeze(-1)
    return out


def mv(a, v):
    if a.dim() != 2 or v.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {a.dim()}, {v.dim()}")
    return matmul(a, v)


def addmm(x, a, b, beta=1, alpha=1, vector=False):
    """torch.addmm / addmv: beta * x + alpha * (a @ b); with beta 0, x is not read (its NaNs don't
    propagate), as torch's."""
    if vector:
        if a.dim() != 2 or b.dim() != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got {x.dim()}, {a.dim()}, {b.dim()}")
    elif a.dim() != 2 or b.dim() != 2:
        raise RuntimeError(f"addmm: mat1 and mat2 must be matrices, got {a.dim()}-D and {b.dim()}-D")
    product = matmul(a, b)
    if alpha != 1:
        product = product * alpha
    return product if beta == 0 else product + (x if beta == 1 else x * beta)


def _reduction(op):
    # `axis=` is torch's alias of dim; any other keyword is refused, not dropped (`x.sum(dims=1)` would
    # otherwise sum everything).
    def method(self, dim=None, keepdim=False, dtype=None, **kwargs):
        from ._not_implemented import refuse_keywords
        axis = kwargs.pop("axis", None)
        refuse_keywords(f"torch.Tensor.{op}", kwargs, "dim (or axis), keepdim, dtype")
        return reduce(op, self, axis if axis is not None else dim, keepdim, dtype)
    method.__name__ = op
    return method


def _install():
    ops = {
        "__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div", "__floordiv__": "floordiv",
        "__mod__": "remainder", "__pow__": "pow", "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le",
        "__gt__": "gt", "__ge__": "ge", "__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor",
        "__lshift__": "shift_left", "__rshift__": "shift_right",
    }
    for method, op in ops.items():
        setattr(Tensor, method, (lambda op: lambda self, other: binary(_bool_op(op, self, other), self, other))(op))
    # `t != None` is True and `t == None` False, as in torch (its TypeError becomes NotImplemented and
    # Python compares identities): lightning-attention's `if s != None:` on its decay tensor.
    for method, op in {"__eq__": "eq", "__ne__": "ne"}.items():
        setattr(Tensor, method, (lambda op: lambda self, other: NotImplemented if other is None else binary(_bool_op(op, self, other), self, other))(op))
    for method, op in {"__radd__": "add", "__rsub__": "sub", "__rmul__": "mul", "__rtruediv__": "div", "__rpow__": "pow", "__rfloordiv__": "floordiv", "__rmod__": "remainder"}.items():
        setattr(Tensor, method, (lambda op: lambda self, other: binary(op, other, self))(op))
    # alpha scales other (torch.add(a, b, alpha=2) is a + 2 * b).
    for method, op in {"add": "add", "sub": "sub"}.items():
        setattr(Tensor, method, (lambda op: lambda self, other, alpha=1: binary(op, self, other if alpha == 1 else other * alpha))(op))
        setattr(Tensor, method + "_", (lambda op: lambda self, other, alpha=1: self._assign(self, binary(op, self, other if alpha == 1 else other * alpha)))(op))
    for method, op in {"mul": "mul", "div": "div", "pow": "pow", "maximum": "maximum", "minimum": "minimum", "eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "remainder": "remainder",
                       "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor"}.items():
        setattr(Tensor, method, (lambda op: lambda self, other: binary(op, self, other))(op))
    for op in ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "abs", "neg", "floor", "ceil", "round", "trunc",
               "reciprocal", "square", "sign", "logical_not", "isnan", "isinf", "relu", "asin", "acos", "atan", "sinh", "cosh", "log1p", "expm1",
               "log10", "lgamma", "erfc", "erf"]:
        setattr(Tensor, op, (lambda op: lambda self: unary(op, self))(op))
    # In place: the op, then its result written into the tensor (a GPU kernel for GPU tensors: Tensor._assign).
    for method, op in {"__iadd__": "add", "__isub__": "sub", "__imul__": "mul", "__itruediv__": "div", "mul_": "mul", "div_": "div", "clamp_min_": "maximum", "clamp_max_": "minimum"}.items():
        setattr(Tensor, method, (lambda op: lambda self, other: _in_place(op, self, other))(op))
    for op in ["exp", "sqrt", "abs", "neg", "relu", "sigmoid"]:
        setattr(Tensor, op + "_", (lambda op: lambda self: self._assign(self, unary(op, self)))(op))
    Tensor.__neg__ = lambda self: unary("neg", self)
    Tensor.__abs__ = lambda self: unary("abs", self)
    Tensor.__invert__ = lambda self: unary("logical_not", self) if self.dtype is D.bool_ else unary("bitwise_not", self)
    Tensor.__pos__ = lambda self: self
    Tensor.__matmul__ = lambda self, other: matmul(self, other)
    Tensor.__rmatmul__ = lambda self, other: matmul(other, self)
    Tensor.matmul = Tensor.__matmul__
    Tensor.mm = Tensor.__matmul__
    Tensor.mv = mv
    Tensor.addmm = lambda self, mat1, mat2, *, beta=1, alpha=1: addmm(self, mat1, mat2, beta, alpha)
    Tensor.addmm_ = lambda self, mat1, mat2, *, beta=1, alpha=1: self._assign(self, addmm(self, mat1, mat2, beta, alpha).broadcast_to(self.shape))
    # self + value * t1 * t2 (/ t2): unsloth's Slow_RoPE_Embedding `Q.addcmul_(RH_Q, sin)`.
    Tensor.addcmul = lambda self, t1, t2, *, value=1: self + (t1 * t2 if value == 1 else t1 * t2 * value)
    Tensor.addcmul_ = lambda self, t1, t2, *, value=1: self._assign(self, self.addcmul(t1, t2, value=value))
    Tensor.addcdiv = lambda self, t1, t2, *, value=1: self + (t1 / t2 if value == 1 else t1 / t2 * value)
    Tensor.addcdiv_ = lambda self, t1, t2, *, value=1: self._assign(self, self.addcdiv(t1, t2, value=value))
    Tensor.addmv = lambda self, mat, vec, *, beta=1, alpha=1: addmm(self, mat, vec, beta, alpha, vector=True)
    Tensor.addmv_ = lambda self, mat, vec, *, beta=1, alpha=1: self._assign(self, addmm(self, mat, vec, beta, alpha, vector=True).broadcast_to(self.shape))
    for op in ["sum", "mean", "prod", "any", "all"]:
        setattr(Tensor, op, _reduction(op))
    Tensor.var = var
    Tensor.std = std
    Tensor.max = lambda self, dim=None, keepdim=False: max_or_min("max", self, dim, keepdim)
    Tensor.min = lambda self, dim=None, keepdim=False: max_or_min("min", self, dim, keepdim)
    Tensor.amax = lambda self, dim=None, keepdim=False: reduce("max", self, dim, keepdim)
    Tensor.amin = lambda self, dim=None, keepdim=False: reduce("min", self, dim, keepdim)
    Tensor.argmax = lambda self, dim=None, keepdim=False: reduce("argmax", self, dim, keepdim)
    Tensor.argmin = lambda self, dim=None, keepdim=False: reduce("argmin", self, dim, keepdim)
    Tensor.softmax = lambda self, dim=None, dtype=None, axis=None: softmax(self, dim if dim is not None else axis if axis is not None else -1, dtype)
    Tensor.log_softmax = lambda self, dim=None, dtype=None, axis=None: softmax(self, dim if dim is not None else axis if axis is not None else -1, dtype, log=True)
    # `axis=` is torch's alias of dim (FlagGems' nonzero: `inp_bool.cumsum(axis=0)`); dtype= converts first, as torch's.
    Tensor.cumsum = lambda self, dim=None, dtype=None, axis=None: scan("cumsum", self if dtype is None else self.to(dtype), dim if dim is not None else axis)
    Tensor.sort = lambda self, dim=-1, descending=False, stable=False: sort(self, dim, descending, stable)
    Tensor.argsort = lambda self, dim=-1, descending=False, stable=False: sort(self, dim, descending, stable)[1]
    Tensor.topk = lambda self, k, dim=-1, largest=True, sorted=True: topk(self, k, dim, largest, sorted)
    Tensor.bincount = lambda self, weights=None, minlength=0: bincount(self, weights, minlength)
    Tensor.clamp = lambda self, min=None, max=None: clamp(self, min, max)
    Tensor.clip = Tensor.clamp
    # torchao's moe_training generate_permute_indices: `torch.clamp_min(total_tokens_per_expert, alignment)`.
    Tensor.clamp_min = lambda self, min: clamp(self, min, None)
    Tensor.clamp_max = lambda self, max: clamp(self, None, max)


def _bool_op(op, a, b):
    """`&`, `|`, `^` of bool tensors are the logical ops."""
    bools = all((isinstance(x, Tensor) and x.dtype is D.bool_) or isinstance(x, bool) for x in (a, b))
    return {"bitwise_and": "logical_and", "bitwise_or": "logical_or", "bitwise_xor": "logical_xor"}.get(op, op) if bools else op


def clamp(x, min=None, max=None):
    out = x
    if min is not None:
        out = binary("maximum", out, min)
    if max is not None:
        out = binary("minimum", out, max)
    return out if out is not x else x.clone()


_install()
