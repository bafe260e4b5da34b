# The package re-exports its host function, as kernel libraries' ops/__init__.py do.
from .scaled import scaled_clamp  # noqa: F401
