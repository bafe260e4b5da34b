# torch._inductor.runtime: what a generated kernel's module imports (triton_helpers, triton_heuristics,
# hints); see torch/_inductor/__init__.py.

from . import hints, triton_helpers, triton_heuristics  # noqa: F401
