# torch.empty_like & co.: a tensor of another's shape, dtype and device, and, as torch's
# preserve_format, its strides where its dims are only reordered (a transpose of a dense tensor).

from ._size import _dense_order


class memory_format:
    """torch.contiguous_format / torch.preserve_format, as `memory_format=` takes them (fla's conv:
    `torch.empty_like(x, memory_format=torch.contiguous_format)`); Kernel Lab has no channels_last."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")


def _like(name, make):
    def like(t, dtype=None, device=None, requires_grad=False, memory_format=None, **kwargs):
        from ._not_implemented import refuse_keywords
        refuse_keywords(f"torch.{name}", kwargs, "dtype, device, requires_grad, memory_format")
        # torch's preserve_format: a dense tensor with its dims reordered (a transpose) gets the same
        # strides (attorch's batch norm writes into empty_like of a transpose, then views it back).
        if memory_format is not None and memory_format not in (contiguous_format, preserve_format):
            raise TypeError(f"torch.{name}: memory_format must be torch.contiguous_format or torch.preserve_format in Kernel Lab, got {memory_format!r}")
        order = _dense_order(t.shape, t.stride()) if memory_format in (None, preserve_format) else None
        if order is None:
            return make(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)
        base = make(tuple(t.shape[d] for d in order), dtype=dtype or t.dtype, device=device or t.device)
        out = base.permute(*[order.index(d) for d in range(len(order))])
        out.requires_grad = requires_grad
        return out
    like.__name__ = name
    return like
