# torch._inductor.kernel.mm_common: the grid of the mm, addmm and mm_plus_mm templates (see __init__.py).

from ..runtime.triton_heuristics import ceildiv as cdiv


def mm_grid(m, n, meta):
    """The grid for matmul templates: one program per BLOCK_M × BLOCK_N tile of the output, flattened."""
    return (cdiv(m, meta["BLOCK_M"]) * cdiv(n, meta["BLOCK_N"]), 1, 1)


def persistent_mm_grid(M, N, meta):
    """The persistent (TMA) matmul template's grid: at most NUM_SMS programs, each looping over tiles."""
    return (min(meta["NUM_SMS"], cdiv(M, meta["BLOCK_M"]) * cdiv(N, meta["BLOCK_N"])), 1, 1)


persistent_grid = persistent_mm_grid  # torch 2.5's name


def acc_type(dtype):
    """The accumulator dtype a template is written with: f32 for f16 and bf16, else the inputs' own."""
    import torch

    if dtype in (torch.float16, torch.bfloat16):
        return "tl.float32"
    return f"tl.{dtype}".replace("torch.", "")
