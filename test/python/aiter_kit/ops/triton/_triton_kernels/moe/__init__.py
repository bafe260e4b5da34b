# Package marker (aiter/ops/triton/_triton_kernels/moe/__init__.py holds only its license header).
