# FlagGems' tl_extra_shim in miniature: the math module is picked while the package is imported (its
# backend's libdevice), so only Python knows what `math_shim` is; a kernel's module binds its
# functions under names of its own (`rsqrt = math_shim.rsqrt`) and calls `math_shim.pow(…)`.
import importlib

BACKEND_MATH = "triton.language.extra.libdevice"
math_shim = importlib.import_module(BACKEND_MATH)

# random_utils' way: a tl function bound under a module-level name, imported by the kernels' module.
import triton.language as tl  # noqa: E402

uint_to_uniform_float = tl.uint_to_uniform_float
