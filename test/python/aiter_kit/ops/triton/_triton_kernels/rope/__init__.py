# Package marker (aiter/ops/triton/_triton_kernels/rope/__init__.py holds only its license header).
