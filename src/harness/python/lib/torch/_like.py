# torch.empty_like & co.: a tensor of another's shape, dtype and device, and, as torch's
# preserve_format, its strides where its dims are only reordered (a transpose of a dense tensor).

from ._size import _dense_order


def _like(name, make):
    def like(t, dtype=None, device=None, requires_grad=False, memory_format=None, **kwargs):
        from ._not_implemented import refuse_keywords
        refuse_keywords(f"torch.{name}", kwargs, "dtype, device, requires_grad, memory_format")
        # torch's preserve_format: a dense tensor with its dims reordered (a transpose) gets the same
        # strides (attorch's batch norm writes into empty_like of a transpose, then views it back).
        order = _dense_order(t.shape, t.stride()) if memory_format is None else None
        if order is None:
            return make(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)
        base = make(tuple(t.shape[d] for d in order), dtype=dtype or t.dtype, device=device or t.device)
        out = base.permute(*[order.index(d) for d in range(len(order))])
        out.requires_grad = requires_grad
        return out
    like.__name__ = name
    return like
