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
