# A module in a folder without __init__.py inside xmod_helpers (a namespace package in CPython 3), as tritonbench's
# operators/sum/kernels.py is reached under a driver's stand-in for tritonbench.operators (test/python/xmod-registered.py).
import triton
import triton.language as tl


@triton.jit
def doubled(x):
    return x * 2
