# triton.compiler: the errors a script may catch.

from .._bridge import CompilationError, OutOfResources  # noqa: F401  (triton.compiler.OutOfResources: Triton 2's spelling, GPTQ-for-LLaMa's autotuner catches it)
