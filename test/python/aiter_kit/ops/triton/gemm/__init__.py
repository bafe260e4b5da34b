# Package marker (aiter/ops/triton/gemm/__init__.py holds only its license header).
