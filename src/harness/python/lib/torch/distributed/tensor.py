# torch.distributed.tensor: DTensor as a type to test against (no tensor of Kernel Lab's is one).


class DTensor:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.distributed.tensor.DTensor is not in Kernel Lab's torch: one GPU, no process group")

    @staticmethod
    def from_local(*args, **kwargs):
        raise NotImplementedError("torch.distributed.tensor.DTensor.from_local is not in Kernel Lab's torch: one GPU, no process group")
