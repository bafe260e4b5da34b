# FlagGems' tl_extra_shim in miniature: the math module is picked while the package is imported (its
# backend's libdevice), so only Python knows what `math_shim` is; a kernel's module binds its
# functions under names of its own (`rsqrt = math_shim.rsqrt`) and calls `math_shim.pow(…)`.
import importlib

BACKEND_MATH = "triton.language.extra.libdevice"
math_shim = importlib.import_module(BACKEND_MATH)
