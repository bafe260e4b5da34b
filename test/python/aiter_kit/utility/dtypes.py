# Stand-in for aiter/utility/dtypes.py (https://github.com/ROCm/aiter at e4048607, MIT, Copyright (C) Advanced Micro
# Devices, Inc.): its dtype names and fp8 table, copied unchanged; the arch comes from Triton's target, where aiter's
# get_gfx_runtime() runs rocminfo (an arch aiter doesn't know gets its own 8-bit fallback, torch.uint8, as there).
import torch
import triton

defaultDtypes = {
    "gfx942": {"fp8": torch.float8_e4m3fnuz},
    "gfx950": {"fp8": torch.float8_e4m3fn},
    "gfx1100": {"fp8": torch.float8_e4m3fn},
    "gfx1101": {"fp8": torch.float8_e4m3fn},
    "gfx1102": {"fp8": torch.float8_e4m3fn},
    "gfx1151": {"fp8": torch.float8_e4m3fn},
    "gfx1200": {"fp8": torch.float8_e4m3fn},
    "gfx1201": {"fp8": torch.float8_e4m3fn},
    "gfx1250": {"fp8": torch.float8_e4m3fn},
}

_8bit_fallback = torch.uint8


def get_gfx_runtime():
    return triton.runtime.driver.active.get_current_target().arch


def get_dtype_fp8():
    return defaultDtypes.get(get_gfx_runtime(), {"fp8": _8bit_fallback})["fp8"]


i4x2 = getattr(torch, "int4", _8bit_fallback)
fp4x2 = getattr(torch, "float4_e2m1fn_x2", _8bit_fallback)
fp8 = get_dtype_fp8()
fp8_e8m0 = getattr(torch, "float8_e8m0fnu", _8bit_fallback)
fp16 = torch.float16
bf16 = torch.bfloat16
fp32 = torch.float32
u32 = torch.uint32
i32 = torch.int32
i16 = torch.int16
i8 = torch.int8
u8 = torch.uint8
i64 = torch.int64
u64 = torch.uint64
