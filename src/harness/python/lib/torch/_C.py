# torch._C: every torch has it (the compiled core), and libraries probe it for bindings —
# `hasattr(torch._C, "_cuda_getCurrentRawStream")` picks their CPU-only fallback when it's absent.
# Kernel Lab's torch has one of its members, the raw handle of the current stream, which libraries
# read while they import (unsloth keeps one per device for bitsandbytes' C calls): Kernel Lab has only
# the default stream, whose handle is 0 in torch too. Each other member is torch's that Kernel Lab
# lacks, and hasattr answers False (the refusal is also an AttributeError).

from ._not_implemented import not_implemented as _not_implemented


import enum as _enum


class Tag(_enum.Enum):
    """torch.Tag (torch._C.Tag): the tags an operator is registered with (torchtitan's fused_mla.py:
    `@torch.library.custom_op(…, tags=torch.Tag.inplace)`). Kept with the op; nothing here reads them."""
    core = 0
    cudagraph_unsafe = 1
    data_dependent_output = 2
    dynamic_output_shape = 3
    flexible_layout = 4
    generated = 5
    inplace = 6
    inplace_view = 7
    maybe_aliasing_or_mutating = 8
    needs_contiguous_strides = 9
    needs_exact_strides = 10
    needs_fixed_stride_order = 11
    nondeterministic_bitwise = 12
    nondeterministic_seeded = 13
    pointwise = 14
    pt2_compliant_tag = 15
    view_copy = 16


def _cuda_getCurrentRawStream(device_index=0):
    return 0


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    # A Tensor subclass sets `__torch_function__` to this to opt out of dispatch (xformers'
    # ScaledTensor); Kernel Lab's torch has no __torch_function__ dispatch, so it only calls through.
    return func(*args, **(kwargs or {}))


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(f"module 'torch._C' has no attribute {name!r}")
    _not_implemented(f"torch._C.{name}")
