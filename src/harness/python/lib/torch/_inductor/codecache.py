# torch._inductor.codecache: where torch ≤ 2.3's output code imports AsyncCompile from (async_compile.py).

from .async_compile import AsyncCompile  # noqa: F401

from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._inductor.codecache")
