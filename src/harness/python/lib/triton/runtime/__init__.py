# triton.runtime: the driver (the active GPU as Triton's tutorials ask for it) and the errors.

from . import driver  # noqa: F401
from .._jit import JITFunction, Heuristics, KernelInterface  # noqa: F401
from .._autotuner import Autotuner, Config  # noqa: F401
from .._bridge import KernelLabError, OutOfBoundsError  # noqa: F401
from . import errors  # noqa: F401
from .errors import OutOfResources  # noqa: F401
