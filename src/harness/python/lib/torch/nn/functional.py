# torch.nn.functional: softmax, layer_norm (with its backward, for tutorial 05's reference), gelu and
# silu (with theirs: scattermoe's MLP applies one between two autograd Functions), relu, dropout,
# conv2d (_conv.py): torch's ops (_math.py), GPU kernels on GPU tensors where Kernel Lab has them.

import math

from .. import _math
from .._autograd import attach, refuse_grad, _grad_mode
from .._tensor import not_implemented
from ._conv import conv2d  # noqa: F401 (torch.nn.functional.conv2d)
from .._along_dim import pad  # noqa: F401 (torch.nn.functional.pad, constant mode)


def softmax(x, dim=None, dtype=None, **kwargs):
    from .._not_implemented import refuse_keywords
    axis = kwargs.pop("axis", None)
    kwargs.pop("_stacklevel", None)  # torch's, for its deprecation warning
    refuse_keywords("torch.nn.functional.softmax", kwargs, "dim (or axis), dtype")
    refuse_grad("softmax", x)
    dim = axis if axis is not None else dim
    return _math.softmax(x, -1 if dim is None else dim, dtype)


def log_softmax(x, dim=None, dtype=None):
    refuse_grad("log_softmax", x)
    return _math.softmax(x, -1 if dim is None else dim, dtype, log=True)


def relu(x, inplace=False):
    refuse_grad("relu", x)
    return _math.unary("relu", x)


def gelu(x, approximate="none"):
    with _grad_mode(False):
        out = _math.unary("gelu_tanh" if approximate == "tanh" else "gelu", x)

    def backward(g):
        # d/dx x Φ(x) = Φ(x) + x φ(x); with approximate="tanh", of 0.5 x (1 + tanh(u)), u = √(2/π) (x + 0.044715 x³).
        import torch
        xf = x.float()
        if approximate == "tanh":
            t = torch.tanh(math.sqrt(2 / math.pi) * (xf + 0.044715 * xf * xf * xf))
            slope = 0.5 * (1 + t) + 0.5 * xf * (1 - t * t) * math.sqrt(2 / math.pi) * (1 + 3 * 0.044715 * xf * xf)
        else:
            slope = 0.5 * (1 + torch.erf(xf / math.sqrt(2))) + xf * torch.exp(-0.5 * xf * xf) / math.sqrt(2 * math.pi)
        return [(g.float() * slope).to(x.dtype)]

    return attach(out, "GeluBackward0", [x], backward)


def silu(x, inplace=False):
    with _grad_mode(False):
        out = _math.unary("silu", x)

    def backward(g):
        # d/dx x σ(x) = σ(x) (1 + x (1 − σ(x))).
        import torch
        xf = x.float()
        s = torch.sigmoid(xf)
        return [(g.float() * s * (1 + xf * (1 - s))).to(x.dtype)]

    return attach(out, "SiluBackward0", [x], backward)


def sigmoid(x):
    refuse_grad("sigmoid", x)
    return _math.unary("sigmoid", x)


def softplus(x, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold, as torch's (mamba's
    selective_state_update_ref)."""
    refuse_grad("softplus", x)
    import torch
    scaled = x * beta
    return torch.where(scaled > threshold, x, torch.log1p(torch.exp(scaled)) / beta).to(x.dtype)


def tanh(x):
    return _math.unary("tanh", x)


def linear(x, weight, bias=None):
    """x @ weight.T + bias (mamba's LayerNormLinearFn calls it inside its own forward and backward)."""
    refuse_grad("linear", x, weight, *([bias] if bias is not None else []))
    out = _math.matmul(x, weight.t())
    return out + bias if bias is not None else out


def dropout(x, p=0.5, training=True, inplace=False):
    refuse_grad("dropout", x)
    if not training or p == 0:
        return x
    import torch
    keep = torch.rand(x.shape, device=x.device) > p
    return torch.where(keep, x / (1 - p), 0.0).to(x.dtype)


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """
    Over the last len(normalized_shape) axes, in float32 (torch's CUDA kernel accumulates in float32
    too): on GPU tensors with a weight and a bias one kernel forward and two backward
    (_gpu_nn.py), otherwise composed of torch's ops (each a GPU kernel where it has one).
    """
    shape = tuple(normalized_shape) if isinstance(normalized_shape, (tuple, list)) else (normalized_shape,)
    if tuple(x.shape[-len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, {', '.join(map(str, shape))}], but got input of size{list(x.shape)}")
    n = 1
    for s in shape:
        n *= s
    from .. import _on_gpu

    def normalized():
        rows = x.reshape(-1, n).float()
        centred = rows - rows.mean(dim=1, keepdim=True)
        rstd = ((centred * centred).mean(dim=1, keepdim=True) + eps).rsqrt()
        return centred * rstd, rstd

    with _grad_mode(False):
        out = _on_gpu.layer_norm(x, weight, bias, eps, n) if x.device.type == "cuda" else None
        if out is None:
            y, _ = normalized()
            if weight is not None:
                y = y * weight.reshape(n).float()
            if bias is not None:
                y = y + bias.reshape(n).float()
            out = y.to(x.dtype).reshape(*x.shape)
    inputs = [t for t in (x, weight, bias) if t is not None]

    def backward(dy):
        if weight is not None and bias is not None and dy.device.type == "cuda":
            grads = _on_gpu.layer_norm_backward(x, weight, dy, eps, n)
            if grads is not None:
                dx, dw, db = grads
                return [dx, dw.reshape(*weight.shape), db.reshape(*bias.shape)]
        xhat, rstd = normalized()
        g = dy.reshape(-1, n).float()
        w = weight.reshape(n).float() if weight is not None else None
        gx = g * w if w is not None else g
        dx = rstd * (gx - gx.mean(dim=1, keepdim=True) - xhat * (gx * xhat).mean(dim=1, keepdim=True))
        grads = [dx.to(x.dtype).reshape(*x.shape)]
        if weight is not None:
            grads.append((g * xhat).sum(dim=0).to(weight.dtype).reshape(*weight.shape))
        if bias is not None:
            grads.append(g.sum(dim=0).to(bias.dtype).reshape(*bias.shape))
        return grads

    return attach(out, "NativeLayerNormBackward0", inputs, backward)


def __getattr__(name):
    not_implemented(f"torch.nn.functional.{name}")
