# Package marker (aiter/ops/triton/normalization/__init__.py holds only its license header).
