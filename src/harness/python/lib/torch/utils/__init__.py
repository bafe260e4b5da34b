# torch.utils: only `_triton`, torch's own probe of Triton (bitsandbytes' triton_utils.py asks it
# before defining its kernels); its other submodules (`torch.utils.checkpoint`, `.data`…) are refused
# by name on import (MissingSubmodules), and a name it lacks is NotImplementedError naming it.

from . import _triton  # noqa: F401

from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.utils")
