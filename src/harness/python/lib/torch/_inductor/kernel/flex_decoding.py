# torch._inductor.kernel.flex_decoding: flex decoding's grid (see __init__.py).


def flex_decoding_grid(batch_size, kv_heads, gqa_group_size, n_keys, d_model, meta):
    """Batch × key/value heads on axis 0, the SPLIT_KV slices of the keys on axis 1; the slices' partial
    outputs are combined afterwards by the output code."""
    return (batch_size * kv_heads, meta["SPLIT_KV"], 1)
