# Package marker (aiter/ops/triton/utils/_triton has no __init__.py: a namespace package).
