# torch._dynamo.testing: rand_strided, which torch.compile's output code uses to make its example inputs
# (benchmark_compiled_module) and tritonbench's operators theirs: a tensor of the given sizes and strides
# over a storage just long enough: torch.randn for floats, zeros for integers and bools, as torch's.

from .._not_implemented import missing_in as _missing_in


def rand_strided(size, stride, dtype=None, device="cpu", extra_size=0):
    import torch
    dtype = dtype or torch.float32
    length = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    length += extra_size
    # Integers are zeros, not random: an output module's benchmark passes them as indices (gpu-mode's lecture 18
    # output code: embedding rows, whose kernel asserts `0 <= index < rows`; it failed at 0..9).
    if dtype.is_floating_point:
        buffer = torch.randn(length, dtype=dtype, device=device)
    else:
        buffer = torch.zeros(length, dtype=dtype, device=device)
    return buffer.as_strided(size, stride, 0)


__getattr__ = _missing_in("torch._dynamo.testing")
