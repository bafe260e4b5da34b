# torch.backends flags scripts set (TF32 on matmuls): Kernel Lab's torch matmul is exact float math.


class _Flags:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = False
    allow_bf16_reduced_precision_reduction = False


class cuda:
    matmul = _Flags()


class cudnn:
    allow_tf32 = False
    enabled = True


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.backends")
