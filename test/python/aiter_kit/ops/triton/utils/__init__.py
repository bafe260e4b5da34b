# Package marker (aiter/ops/triton/utils/__init__.py holds only its license header).
