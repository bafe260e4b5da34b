# triton.runtime.autotuner, where Triton defines the autotuner: libraries subclass Autotuner from
# here (flash-linear-attention's CachedAutotuner) or import autotune / heuristics by this path.

from .._autotuner import Autotuner, Config, autotune  # noqa: F401
from .._jit import Heuristics, heuristics  # noqa: F401
