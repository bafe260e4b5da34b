# torch._C: every torch has it (the compiled core), and libraries probe it for bindings —
# `hasattr(torch._C, "_cuda_getCurrentRawStream")` picks their CPU-only fallback when it's absent.
# Kernel Lab's torch has one of its members, the raw handle of the current stream, which libraries
# read while they import (unsloth keeps one per device for bitsandbytes' C calls): Kernel Lab has only
# the default stream, whose handle is 0 in torch too. torch.compile's output code binds its buffer
# helpers from `_dynamo.guards` (and `_distributed_c10d`'s symmetric-memory allocator, refused if called).
# Each other member is torch's that Kernel Lab lacks, and hasattr answers False (the refusal is also an
# AttributeError).

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


class _Guards:
    """torch._C._dynamo.guards: what torch.compile's output code binds at its top — the buffer allocators
    (`empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda`), `assert_size_stride` on its
    inputs, `_reinterpret_tensor` (a view: Tensor.as_strided)."""

    @staticmethod
    def _empty_strided_cuda(size, stride, dtype):
        from . import empty_strided
        return empty_strided(size, stride, dtype=dtype, device="cuda")

    @staticmethod
    def _empty_strided_cpu(size, stride, dtype):
        from . import empty_strided
        return empty_strided(size, stride, dtype=dtype, device="cpu")

    @staticmethod
    def _empty_strided_xpu(size, stride, dtype):
        # Bound (not called) at the top of every output code file of torch ≥ 2.5, as the next.
        _not_implemented("torch._C._dynamo.guards._empty_strided_xpu (an Intel GPU's buffer)")

    @staticmethod
    def _empty_strided_mtia(size, stride, dtype):
        _not_implemented("torch._C._dynamo.guards._empty_strided_mtia (an MTIA device's buffer)")

    @staticmethod
    def _reinterpret_tensor(tensor, size, stride, offset_increment=0):
        return tensor.as_strided(size, stride, tensor.storage_offset() + offset_increment)

    @staticmethod
    def assert_size_stride(item, size, stride, op_name=None):
        """As torch's: each dim's size equal, and its stride where the size is over 1."""
        actual_size, actual_stride = tuple(item.size()), tuple(item.stride())
        if len(actual_size) != len(size) or len(actual_stride) != len(stride):
            raise AssertionError(f"wrong number of dimensions{'' if op_name is None else ' for ' + op_name}: {len(actual_size)} != {len(size)}")
        for dim, (n, s, want_n, want_s) in enumerate(zip(actual_size, actual_stride, size, stride)):
            if n != want_n or (n > 1 and s != want_s):
                raise AssertionError(f"expected size {n}=={want_n}, stride {s}=={want_s} at dim={dim}"
                                     + ("" if op_name is None else f"\nError in op: {op_name}"))

    @staticmethod
    def assert_alignment(item, alignment, op_name=None):
        """Byte alignment of a buffer's start: Kernel Lab's buffers are bound whole, so there is nothing to check."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        _not_implemented(f"torch._C._dynamo.guards.{name}")


class _Namespace:
    def __init__(self, path, **members):
        self._path = path
        self.__dict__.update(members)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        _not_implemented(f"{self._path}.{name}")


def _empty_strided_p2p(*args, **kwargs):
    _not_implemented("torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p (symmetric memory across GPUs)")


_dynamo = _Namespace("torch._C._dynamo", guards=_Guards())
# Bound (not called) at the top of every output code file of torch ≥ 2.6.
_distributed_c10d = _Namespace("torch._C._distributed_c10d", _SymmetricMemory=_Namespace("torch._C._distributed_c10d._SymmetricMemory",
                                                                                          empty_strided_p2p=_empty_strided_p2p))


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    # A Tensor subclass sets `__torch_function__` to this to opt out of dispatch (xformers'
    # ScaledTensor); Kernel Lab's torch has no __torch_function__ dispatch, so it only calls through.
    return func(*args, **(kwargs or {}))


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(f"module 'torch._C' has no attribute {name!r}")
    _not_implemented(f"torch._C.{name}")
