# Package marker (aiter/ops/triton/_triton_kernels has no __init__.py: a namespace package).
