# torch._dynamo.testing: rand_strided, which torch.compile's output code uses to make its example inputs
# (benchmark_compiled_module) and tritonbench's operators theirs: a tensor of the given sizes and strides
# over a storage just long enough, of random values (torch.randn for floats, 0..9 for integers, as torch's).

from .._not_implemented import missing_in as _missing_in


def rand_strided(size, stride, dtype=None, device="cpu", extra_size=0):
    import torch
    dtype = dtype or torch.float32
    length = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    length += extra_size
    if dtype.is_floating_point:
        buffer = torch.randn(length, dtype=dtype, device=device)
    elif dtype is torch.bool:
        buffer = torch.zeros(length, dtype=dtype, device=device)
    else:
        buffer = torch.randint(0, 10, (length,), dtype=dtype, device=device)
    return buffer.as_strided(size, stride, 0)


__getattr__ = _missing_in("torch._dynamo.testing")
