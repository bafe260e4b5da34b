# The ops that only reshape, reorder or copy a tensor carry its gradient, as torch's do: a clone, a
# contiguous copy, view/reshape/flatten/squeeze/unsqueeze, transpose/permute/t, and a dtype cast, of a
# tensor that requires grad (grad enabled) come out requiring grad, their backward the inverse
# reshaping. Before, they came out without one, so a gradient through them never reached the leaf
# (unsloth's `Fast_RoPE_Embedding.apply(Q.transpose(1, 2).contiguous(), …)`).

from ._autograd import attach, needs_grad
from ._tensor import Tensor


def _back_to_shape(x, out, g, args, kwargs):
    return g.reshape(x.shape)


def _transpose(x, out, g, args, kwargs):
    dims = list(args) + [kwargs[k] for k in ("dim0", "dim1") if k in kwargs]
    return g.transpose(dims[0], dims[1])


def _permute(x, out, g, args, kwargs):
    dims = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args if args else kwargs["dims"]
    dims = [d % x.dim() for d in dims]
    return g.permute(*[dims.index(i) for i in range(len(dims))])


def _same(x, out, g, args, kwargs):
    return g


def _cast_back(x, out, g, args, kwargs):
    return g.to(x.dtype).to(x.device)


_GRADIENTS = {
    "clone": _same, "contiguous": _same,
    "view": _back_to_shape, "reshape": _back_to_shape, "flatten": _back_to_shape, "view_as": _back_to_shape,
    "reshape_as": _back_to_shape, "squeeze": _back_to_shape, "unsqueeze": _back_to_shape,
    "transpose": _transpose, "permute": _permute, "t": lambda x, out, g, a, k: g.t(),
    "to": _cast_back, "float": _cast_back, "half": _cast_back, "bfloat16": _cast_back,
}


def _differentiable(name, method, gradient):
    def wrapped(self, *args, **kwargs):
        out = method(self, *args, **kwargs)
        if isinstance(out, Tensor) and out is not self and out.grad_fn is None and needs_grad(self):
            attach(out, f"{name.capitalize()}Backward", [self], lambda g: [gradient(self, out, g, args, kwargs)])
        return out
    wrapped.__name__ = name
    wrapped.__doc__ = method.__doc__
    return wrapped


def install():
    for name, gradient in _GRADIENTS.items():
        method = getattr(Tensor, name)
        if not getattr(method, "kernel_lab_grad", False):
            wrapped = _differentiable(name, method, gradient)
            wrapped.kernel_lab_grad = True
            setattr(Tensor, name, wrapped)
