# triton.runtime.jit: the module Triton's JITFunction lives in, as libraries import from it (FBGEMM's fp8_gemm.py:
# `from triton.runtime.jit import reinterpret as tl_reinterpret, TensorWrapper`, for its annotations). `reinterpret`
# and TensorWrapper are Triton's: a tensor with another element dtype for a kernel to read its bytes as. A kernel
# argument's element type in Kernel Lab is its tensor's torch dtype, so a wrapper launches as its base tensor where the
# dtype is the base's own (FBGEMM's matmul_fp8_block reinterprets its torch.float8_e4m3fn inputs as tl.float8e4nv);
# one that would read the bytes as another dtype is refused at the launch (_jit.py _arg).
# TensorWrapper and reinterpret follow Triton's python/triton/runtime/jit.py (MIT License; Copyright 2018-2020 Philippe
# Tillet, Copyright 2020-2022 OpenAI).

from .._jit import JITFunction, KernelInterface, jit  # noqa: F401


# A torch dtype's name → the name of the Triton dtype that reads its elements as they are.
_TL_NAMES = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "int32": "int32", "int64": "int64", "int8": "int8",
             "uint8": "uint8", "uint32": "uint32", "bool": "int1", "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5"}


def _launched_as(value):
    """What a launch binds for a kernel argument: a TensorWrapper of its base's own dtype is the base tensor."""
    if isinstance(value, TensorWrapper) and _TL_NAMES.get(value.base.dtype.name) == getattr(value.dtype, "name", None):
        return value.base
    return value


class TensorWrapper:
    def __init__(self, base, dtype):
        self.dtype = dtype
        self.base = base
        self.data = base.data
        self.device = base.device
        self.shape = self.base.shape

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def __str__(self):
        return f"TensorWrapper[{self.dtype}]({self.base})"

    def element_size(self):
        return self.base.element_size()

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base)

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)


def reinterpret(tensor, dtype):
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            # Reinterpreting to the original interpretation: the base tensor.
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"Cannot reinterpret a {type(tensor)}.")
