# torch.Size and the shape arithmetic every tensor module shares (contiguous strides, element counts,
# the `view(2, 3)` / `view((2, 3))` spellings of a shape).


def _contiguous_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def _dense_order(shape, strides):
    """The dims, outermost first, of a non-contiguous layout whose elements fill its storage without gaps (a transpose's); None otherwise."""
    if tuple(strides) == _contiguous_strides(shape):
        return None
    order = sorted(range(len(shape)), key=lambda d: -strides[d])
    expected = 1
    for d in reversed(order):
        if shape[d] != 1 and strides[d] != expected:
            return None
        expected *= shape[d]
    return order


def _numel(shape):
    n = 1
    for extent in shape:
        n *= extent
    return n


def _size_args(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        return tuple(int(a) for a in args[0])
    return tuple(int(a) for a in args)


class Size(tuple):
    def numel(self):
        return _numel(self)

    def __getitem__(self, index):
        # A slice of a Size is a Size, as in torch (flash-attention's linear.py: `x.shape[:-1].numel()`).
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        # Size + tuple is a Size too (`x.shape[:-1] + (n,)`).
        return Size(tuple.__add__(self, tuple(other))) if isinstance(other, tuple) else NotImplemented

    def __repr__(self):
        return f"torch.Size([{', '.join(str(x) for x in self)}])"
