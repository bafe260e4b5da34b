# Package marker (aiter/ops/triton/attention/__init__.py holds only its license header).
