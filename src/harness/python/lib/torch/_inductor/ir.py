# torch._inductor.ir: only the hints torch ≤ 2.3's generated kernels import from it (runtime/hints.py).

from .runtime.hints import ReductionHint, TileHint  # noqa: F401

from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._inductor.ir")
