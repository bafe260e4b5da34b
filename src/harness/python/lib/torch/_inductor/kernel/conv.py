# torch._inductor.kernel.conv: the convolution templates' grids (see __init__.py).

from ..runtime.triton_heuristics import ceildiv as cdiv


def conv2d_grid(n, c, h, w, meta):
    """Output pixels (n·h·w) by BLOCK_M on axis 0, output channels by BLOCK_N on axis 1, groups on axis 2."""
    return (cdiv(n * h * w, meta["BLOCK_M"]), cdiv(c, meta["BLOCK_N"]), meta["GROUPS"])


def conv3d_grid(n, c, d, h, w, meta):
    """As conv2d_grid, with the depth among the output pixels."""
    return (cdiv(n * d * h * w, meta["BLOCK_M"]), cdiv(c, meta["BLOCK_N"]), meta["GROUPS"])
