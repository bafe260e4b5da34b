# Package marker (aiter/ops/triton/_triton_kernels/common/__init__.py holds only its license header).
