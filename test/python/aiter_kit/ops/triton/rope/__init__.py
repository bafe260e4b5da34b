# Package marker (aiter/ops/triton/rope/__init__.py holds only its license header).
