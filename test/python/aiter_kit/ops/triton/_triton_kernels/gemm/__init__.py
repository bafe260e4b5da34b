# Package marker (aiter/ops/triton/_triton_kernels/gemm/__init__.py holds only its license header).
