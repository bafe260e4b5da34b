# Package marker (aiter/ops/triton/_triton_kernels/attention/__init__.py holds only its license header).
