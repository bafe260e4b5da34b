# torch.ops.inductor: the two ops output code binds at its top, `reinterpret_tensor =
# torch.ops.inductor._reinterpret_tensor` (a view of a buffer's storage: Tensor.as_strided) and
# `alloc_from_pool` (a buffer carved from a planned pool: the same). torch/_ops.py answers
# torch.ops.inductor with this module.


def _reinterpret_tensor(tensor, size, stride, offset_increment=0):
    return tensor.as_strided(size, stride, tensor.storage_offset() + offset_increment)


def _alloc_from_pool(pool, offset_bytes, dtype, size, stride):
    from .codegen.memory_planning import _align  # noqa: F401
    assert offset_bytes % dtype.itemsize == 0
    return pool.view(dtype).as_strided(size, stride, offset_bytes // dtype.itemsize) if dtype is not pool.dtype else \
        pool.as_strided(size, stride, offset_bytes // dtype.itemsize)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from .._not_implemented import not_implemented
    not_implemented(f"torch.ops.inductor.{name}")
