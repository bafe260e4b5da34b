# torch._library: only `triton`, where torch keeps triton_op / wrap_triton (flash-attention's
# flash_attn/utils/library.py imports `set_wrap_triton_enabled` from it), and the names torch's
# __init__ takes from it (FBGEMM's fp8_gemm.py: `@torch._library.triton_op(…)`,
# `torch._library.capture_triton(kernel)[grid](…)`). Its other submodules are refused by name on
# import, and a name it lacks is NotImplementedError naming it.

from . import triton  # noqa: F401
from .triton import capture_triton, triton_op, wrap_triton  # noqa: F401

from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._library")
