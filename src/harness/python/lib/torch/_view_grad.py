# The ops that only reshape, reorder, pick, broadcast or copy a tensor carry its gradient, as torch's
# do: a clone, a contiguous copy, view/reshape/flatten/squeeze/unsqueeze, transpose/permute/t, a
# dtype cast, indexing (`x[1:, 0]`, and narrow, select, split, chunk, unbind through it) and expand
# (expand_as, broadcast_to), of a tensor that requires grad (grad enabled) come out requiring grad,
# their backward the inverse: reshaped back, scattered into zeros, summed over the broadcast dims. Before, they came out without one, so a gradient through them never reached the leaf
# (unsloth's `Fast_RoPE_Embedding.apply(Q.transpose(1, 2).contiguous(), …)`).

from ._autograd import attach, is_grad_enabled, needs_grad
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


def _scatter(x, out, g, args, kwargs):
    # x[key] (a view; indexing with a tensor refuses grad before this): g written into zeros there.
    import torch
    full = torch.zeros(x.shape, dtype=g.dtype, device=x.device)
    full[args[0]] = g
    return full


def _unbroadcast(x, out, g, args, kwargs):
    lead = g.dim() - x.dim()
    for _ in range(lead):
        g = g.sum(dim=0)
    for d, size in enumerate(x.shape):
        if size == 1 and g.shape[d] != 1:
            g = g.sum(dim=d, keepdim=True)
    return g


_GRADIENTS = {
    "clone": _same, "contiguous": _same,
    "view": _back_to_shape, "reshape": _back_to_shape, "flatten": _back_to_shape, "view_as": _back_to_shape,
    "reshape_as": _back_to_shape, "squeeze": _back_to_shape, "unsqueeze": _back_to_shape,
    "transpose": _transpose, "permute": _permute, "t": lambda x, out, g, a, k: g.t(),
    "to": _cast_back, "float": _cast_back, "half": _cast_back, "bfloat16": _cast_back, "cpu": _cast_back, "cuda": _cast_back,
    "__getitem__": _scatter, "expand": _unbroadcast,
}


# The ops above whose result may be a view (the same storage): made with grad disabled, one of a tensor
# that requires grad still requires grad, with no grad_fn, as in torch (pytorch issue 11390), so that
# an autograd.Function's forward that views its input first (applied-ai's fused softmax:
# `x = x.view(-1, n)`, then `if x.requires_grad: ctx.save_for_backward(res)`) sees what it sees there.
_VIEWS = {"view", "view_as", "reshape", "reshape_as", "flatten", "squeeze", "unsqueeze", "transpose", "permute", "t", "__getitem__", "expand"}


def _differentiable(name, method, gradient):
    def wrapped(self, *args, **kwargs):
        out = method(self, *args, **kwargs)
        if isinstance(out, Tensor) and out is not self and out.grad_fn is None and needs_grad(self):
            label = {"__getitem__": "Index", "t": "T"}.get(name, name.capitalize())
            attach(out, f"{label}Backward", [self], lambda g: [gradient(self, out, g, args, kwargs)])
        elif isinstance(out, Tensor) and out is not self and name in _VIEWS and self.requires_grad and not is_grad_enabled() and out._data is self._data:
            out.requires_grad = True
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
