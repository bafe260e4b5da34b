# Copied from https://github.com/Dao-AILab/flash-attention at bbe25bac (the package's last commit before it moved to aiter),
# flash_attn/flash_attn_triton_amd/__init__.py (BSD-3-Clause, Copyright (c) 2022 the respective contributors: LICENSE here). Unchanged.
from . import interface_v2 as flash_attn_2
from . import interface_v3 as flash_attn_3

__all__ = ["flash_attn_2", "flash_attn_3"]
