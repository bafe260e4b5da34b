# triton.runtime.errors: what a launch raises where Triton's does (its autotuner catches OutOfResources).

from .._bridge import CompilationError, KernelLabError, OutOfResources  # noqa: F401
