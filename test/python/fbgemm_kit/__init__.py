# Package marker for Kernel Lab's copy of FBGEMM's Triton kernels (test/python/fbgemm-idioms.py); fbgemm_gpu's own __init__.py loads its C++ operator library.
