# torch.distributed as one GPU with no process group sees it. Kernel libraries test for it on the
# host (Liger's swiglu: `isinstance(a, torch.distributed.tensor.DTensor)`) before taking their
# single-device path; that test must answer, and answer no. Nothing here communicates.

from . import tensor  # noqa: F401


def is_available():
    return False


def is_initialized():
    return False


def get_world_size(group=None):
    return 1


def get_rank(group=None):
    return 0


def _collective(name):
    def collective(*args, **kwargs):
        raise NotImplementedError(f"torch.distributed.{name} is not in Kernel Lab's torch: one GPU, no process group")
    collective.__name__ = name
    return collective


# Collectives a library names at import (fla's fused_cross_entropy.py tests
# `"all_gather_into_tensor" in dir(torch.distributed)`, else binds torch's older `_all_gather_base`):
# present, and refused when called.
all_gather_into_tensor = _collective("all_gather_into_tensor")
reduce_scatter_tensor = _collective("reduce_scatter_tensor")


class DeviceMesh:
    """A type for annotations (fla's tensor-parallel classes take one): one GPU has no mesh to make."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.distributed.DeviceMesh is not in Kernel Lab's torch: one GPU, no process group")


class ProcessGroup:
    """A type for annotations: there is no process group to make."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.distributed.ProcessGroup is not in Kernel Lab's torch: one GPU, no process group")


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.distributed")
