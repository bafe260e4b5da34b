# Package marker (aiter/ops/triton/_triton_kernels/quant/__init__.py holds only its license header).
