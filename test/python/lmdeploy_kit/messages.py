# Stand-in for lmdeploy/messages.py (https://github.com/InternLM/lmdeploy at 1263d5cd8, Apache-2.0, Copyright (c)
# OpenMMLab): only its QuantPolicy, copied unchanged; the rest of the module needs pydantic and lmdeploy's engine.
import enum


class QuantPolicy(enum.IntEnum):
    """Quantization policy constants for KV cache."""
    NONE = 0
    INT4 = 4  # 4-bit KV cache
    INT8 = 8  # 8-bit KV cache
    FP8 = 16  # FP8 KV cache (float8_e4m3fn, per-tensor scale. DSA uses the fp8_ds_mla layout)
    FP8_E5M2 = 17  # FP8 KV cache (float8_e5m2, per-tensor scale)
    TURBO_QUANT = 42  # TurboQuant: K=4bit QJL4 + V=2bit MSE
