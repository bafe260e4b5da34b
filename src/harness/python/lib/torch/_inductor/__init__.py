# torch._inductor: the runtime that the code torch.compile prints (`TORCH_LOGS=output_code`, the
# output_code.py files in /tmp/torchinductor_*) imports, so that code runs here as written: its Triton
# kernels (async_compile.triton, compiled by Kernel Lab to WGSL and run checked), their decorators
# (runtime/triton_heuristics.py), the helpers they call (runtime/triton_helpers.py), and the wrapper's
# allocation and extern calls (torch._C._dynamo.guards, select_algorithm.extern_kernels). TorchInductor
# itself — compiling a model — isn't here: torch.compile runs a model eagerly (torch/__init__.py). A name
# it lacks is NotImplementedError naming it; a submodule it lacks is refused on import.

import sys as _sys

from . import runtime  # noqa: F401
from .runtime import triton_helpers as _helpers, triton_heuristics as _heuristics

# torch ≤ 2.3's files import these from torch._inductor itself.
_sys.modules.setdefault("torch._inductor.triton_helpers", _helpers)
_sys.modules.setdefault("torch._inductor.triton_heuristics", _heuristics)
triton_helpers = _helpers
triton_heuristics = _heuristics

from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._inductor")
