# Package marker (aiter/ops/triton/_triton_kernels/normalization/__init__.py holds only its license header).
