"""A module beside the script whose import fails, in a call written over several lines (as
unsloth's fp8.py: `y = torch.empty_like(x, dtype = torch.float8_e4m3fn)`): the traceback shows
this file's lines too, and the dtype is refused by name (float8_e4m3fnuz, AMD's: Kernel Lab's fp8 tensors are float8_e4m3fn and float8_e5m2)."""

import torch

SCALES = torch.ones(4)
QUANTIZED = torch.empty_like(
    SCALES,
    dtype=torch.float8_e4m3fnuz,
)
