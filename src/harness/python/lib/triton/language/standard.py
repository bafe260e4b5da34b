# triton.language.standard: where Triton defines tl's functions written in Triton (sum, max, sort, …).
# Libraries import its private helpers too (TransformerEngine's permutation.py: `from
# triton.language.standard import _log2`): a kernel's call to one is compiled by Kernel Lab; on the
# host the constexpr helpers compute as Triton's do, and the rest say they run only in a kernel.

from . import __getattr__ as _tl_getattr
from . import constexpr as _constexpr


def _log2(i):
    """The exponent of the largest power of 2 at most i (0 for i <= 1), as Triton's."""
    n = _constexpr(i).value
    log2 = 0
    while n > 1:
        n >>= 1
        log2 += 1
    return _constexpr(log2)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(f"module 'triton.language.standard' has no attribute '{name}'")
    return _tl_getattr(name.lstrip("_"))
