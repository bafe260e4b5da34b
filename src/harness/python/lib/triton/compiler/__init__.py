# triton.compiler: the errors a script may catch.

from .._bridge import CompilationError  # noqa: F401
