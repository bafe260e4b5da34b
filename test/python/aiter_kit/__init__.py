# Package marker for Kernel Lab's copy of ROCm/aiter's Triton kernels (test/python/aiter-idioms.py); aiter's own
# __init__.py loads its JIT-built C++ modules. It binds `dtypes` as aiter's does (`from .utility import dtypes as dtypes`).
from .utility import dtypes as dtypes
