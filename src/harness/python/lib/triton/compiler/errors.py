# triton.compiler.errors: where Triton defines CompilationError (test_random.py's test_seed_is_int catches
# `triton.compiler.errors.CompilationError`).

from .._bridge import CompilationError  # noqa: F401
