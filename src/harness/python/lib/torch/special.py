# torch.special: the special functions Kernel Lab's torch computes (element-wise in double precision,
# rounded once; tensor-math.ts), as torch.special names them.

from . import _math

erf = lambda x: _math.unary("erf", x)  # noqa: E731
erfc = lambda x: _math.unary("erfc", x)  # noqa: E731
erfcx = lambda x: _math.unary("erfcx", x)  # noqa: E731
gammaln = lambda x: _math.unary("lgamma", x)  # noqa: E731
expm1 = lambda x: _math.unary("expm1", x)  # noqa: E731
log1p = lambda x: _math.unary("log1p", x)  # noqa: E731
