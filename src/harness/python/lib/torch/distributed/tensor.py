# torch.distributed.tensor: DTensor as a type to test against (no tensor of Kernel Lab's is one).


class DTensor:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.distributed.tensor.DTensor is not in Kernel Lab's torch: one GPU, no process group")

    @staticmethod
    def from_local(*args, **kwargs):
        raise NotImplementedError("torch.distributed.tensor.DTensor.from_local is not in Kernel Lab's torch: one GPU, no process group")


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.distributed.tensor")
