# Package marker (aiter/ops/triton/moe/__init__.py holds only its license header).
