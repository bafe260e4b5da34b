# Copied from https://github.com/ROCm/aiter at e4048607, aiter/ops/triton/_triton_kernels/flash_attn_triton_amd/__init__.py (MIT, Copyright (C) Advanced Micro Devices, Inc.;
# the license: aiter_kit/LICENSE), for Kernel Lab's test/python/aiter-idioms.py. Unchanged.
from . import interface_v2 as flash_attn_2
from . import interface_v3 as flash_attn_3

__all__ = ["flash_attn_2", "flash_attn_3"]
