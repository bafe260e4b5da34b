# Package marker (aiter/ops/triton/gemm/basic/__init__.py holds only its license header).
