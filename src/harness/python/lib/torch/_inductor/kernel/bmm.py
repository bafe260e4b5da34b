# torch._inductor.kernel.bmm: the batched matmul template's grid (see __init__.py).

from ..runtime.triton_heuristics import ceildiv as cdiv


def bmm_grid(b, m, n, meta):
    """One program per output tile on axis 0, one per batch on axis 1."""
    return (cdiv(m, meta["BLOCK_M"]) * cdiv(n, meta["BLOCK_N"]), b, 1)
