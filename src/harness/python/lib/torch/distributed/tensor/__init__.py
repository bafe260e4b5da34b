# torch.distributed.tensor: DTensor as a type to test against (no tensor of Kernel Lab's is one), and
# the names a library's tensor-parallel classes are written with (fla's NormParallel: Shard,
# Replicate, distribute_module), so its module imports; distributing anything is refused.

from .placement_types import Partial, Placement, Replicate, Shard  # noqa: F401
from . import parallel  # noqa: F401


class DTensor:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.distributed.tensor.DTensor is not in Kernel Lab's torch: one GPU, no process group")

    @staticmethod
    def from_local(*args, **kwargs):
        raise NotImplementedError("torch.distributed.tensor.DTensor.from_local is not in Kernel Lab's torch: one GPU, no process group")


def distribute_module(module, device_mesh=None, partition_fn=None, input_fn=None, output_fn=None):
    raise NotImplementedError("torch.distributed.tensor.distribute_module is not in Kernel Lab's torch: one GPU, no process group")


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ..._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.distributed.tensor")
