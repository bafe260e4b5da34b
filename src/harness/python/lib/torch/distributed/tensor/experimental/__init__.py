# torch.distributed.tensor.experimental: local_map, which a library imports beside DTensor and calls only on DTensors
# (torchtitan's fused_swiglu.py: `if isinstance(gate, DTensor): … local_map(_silu_and_mul_2d, …)`). No tensor of Kernel
# Lab's is a DTensor, and torch's local_map hands tensors that aren't on to the function unchanged, so it is the function.

import functools as _functools


def local_map(func=None, out_placements=None, in_placements=None, in_grad_placements=None, device_mesh=None, *, redistribute_inputs=False):
    if func is None:  # used as a decorator factory: @local_map(out_placements=…, …)
        return _functools.partial(local_map, out_placements=out_placements, in_placements=in_placements, in_grad_placements=in_grad_placements, device_mesh=device_mesh, redistribute_inputs=redistribute_inputs)
    return func


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ...._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.distributed.tensor.experimental")
