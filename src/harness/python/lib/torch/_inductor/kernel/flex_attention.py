# torch._inductor.kernel.flex_attention: flex attention's grid as torch ≤ 2.6 launches it (see __init__.py): its
# kernels read the batch and head together as `off_hz = tl.program_id(1)`. (torch 2.7 moved them to axes 1 and 2,
# and writes that grid into the kernel's inductor_meta instead of calling this.)

from ..runtime.triton_heuristics import ceildiv as cdiv


def flex_attention_grid(batch_size, q_heads, num_queries, d_model, meta):
    """Query blocks of BLOCK_M on axis 0, batch × heads on axis 1."""
    return (cdiv(num_queries, meta["BLOCK_M"]), batch_size * q_heads, 1)
