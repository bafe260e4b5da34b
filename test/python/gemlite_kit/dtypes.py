import torch
import triton.language as tl

DTYPE_TO_TORCH = {0: torch.float32, 1: torch.float16, 5: torch.uint8, 7: torch.uint32, 10: torch.uint16,
                  12: torch.float8_e4m3fnuz, 13: torch.float8_e5m2fnuz, 19: torch.float8_e8m0fnu}
TORCH_DTYPE_TO_TRITON = {torch.float16: tl.float16, torch.uint32: tl.uint32, torch.uint16: tl.uint16,
                         torch.float8_e4m3fnuz: tl.float8e4b8, torch.float8_e5m2fnuz: tl.float8e5b16,
                         torch.float8_e8m0fnu: tl.uint8}
