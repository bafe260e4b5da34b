# torch.triu / torch.tril (and Tensor.triu, .tril, .triu_, .tril_): the upper / lower triangle of
# each matrix of a tensor (its last two dims), the rest zero. On a GPU tensor (float or bool, 2 to 4
# dims) a GPU kernel (_gpu_kernels._triangle); otherwise on the CPU, as torch.where of the input
# and a mask built from two aranges. The gradient is the triangle of the gradient.

import operator

from . import _on_gpu
from ._tensor import Tensor


def _triangle(name, x, diagonal, upper):
    from . import _math, arange, zeros
    from ._autograd import _grad_mode, attach, needs_grad
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(x).__name__}")
    diagonal = operator.index(diagonal)
    if x.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    if needs_grad(x):
        with _grad_mode(False):
            out = _triangle(name, x, diagonal, upper)
        return attach(out, "TriuBackward0" if upper else "TrilBackward0", [x], lambda g: [_triangle(name, g, diagonal, upper)])
    rows, cols = x.shape[-2], x.shape[-1]
    # Past the matrix's corners every diagonal keeps all or nothing; within them it fits a kernel's int32.
    diagonal = max(-rows, min(cols, diagonal))
    if x.device.type == "cuda":
        out = _on_gpu.triangle(x, diagonal, upper)
        if out is not None:
            return out
        _math._on_cpu(f"torch.{name}", x)
    offset = arange(cols).view(1, cols) - arange(rows).view(rows, 1)
    keep = offset >= diagonal if upper else offset <= diagonal
    source = x.cpu() if x.device.type == "cuda" else x
    out = _math.where(keep, source, zeros((), dtype=x.dtype)).to(x.dtype)
    return out.to(x.device) if x.device.type == "cuda" else out


def triu(input, diagonal=0, *, out=None):
    result = _triangle("triu", input, diagonal, True)
    return result if out is None else _write_out("triu", out, result)


def tril(input, diagonal=0, *, out=None):
    result = _triangle("tril", input, diagonal, False)
    return result if out is None else _write_out("tril", out, result)


def _write_out(name, out, result):
    from . import _write_out as write
    return write(name, out, result)


def install():
    Tensor.triu = lambda self, diagonal=0: triu(self, diagonal)
    Tensor.tril = lambda self, diagonal=0: tril(self, diagonal)
    Tensor.triu_ = lambda self, diagonal=0: self._assign(self, triu(self, diagonal))
    Tensor.tril_ = lambda self, diagonal=0: self._assign(self, tril(self, diagonal))

