import torch
import triton
import triton.language as tl

from tinylib.helpers import twice  # absolute: the package's own folder on sys.path
from . import scale  # relative: the same package


@triton.jit
def _scale_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, twice(x) + y * scale.FACTOR, mask=m)


def scale_add(x, y):
    out = torch.full_like(x, float("nan"))
    n = x.numel()
    _scale_add_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
    return out
