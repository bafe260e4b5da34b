# triton.tools.tensor_descriptor.TensorDescriptor: a tensor described to a kernel as a base, a shape,
# strides and the block shape the kernel reads and writes it in (Triton's host-side tensor
# descriptor). A launch passes it as the base tensor plus its shape and strides, as Triton expands
# it; block shape and padding specialise the kernel, and `block_shape` may change between launches
# (tutorial 06's and 09's autotune pre_hooks set it). The kernel reads it as a block pointer with
# every axis checked (docs/LANGUAGE.md, tensor descriptors). Triton's own checks are made here, so a
# descriptor that runs here is one Triton accepts too.

_MAX_RANK = 3  # Kernel Lab's blocks have up to three axes (Triton's descriptors up to five).


def _power_of_two(n):
    return isinstance(n, int) and n > 0 and n & (n - 1) == 0


class TensorDescriptor:
    def __init__(self, base, shape, strides, block_shape, padding="zero"):
        self.base = base
        self.shape = [int(s) for s in shape]
        self.strides = [int(s) for s in strides]
        self.block_shape = block_shape
        self.padding = padding
        rank = len(self.shape)
        assert len(self.strides) == rank, f"rank mismatch: {self}"
        assert len(list(block_shape)) == rank, f"rank mismatch: {self}"
        assert rank > 0, "rank must not be zero"
        assert rank <= _MAX_RANK, f"rank cannot be more than {_MAX_RANK} in Kernel Lab (its blocks have up to three axes; Triton allows 5)"
        assert base.data_ptr() % 16 == 0, "base must be 16-byte aligned"
        elem_bytes = base.element_size()
        for stride in self.strides[:-1]:
            assert (stride * elem_bytes) % 16 == 0, "strides must be 16-byte aligned"
        assert self.strides[-1] == 1, "Last dimension must be contiguous"
        assert padding in ("zero", "nan"), "Illegal value for padding"

    @property
    def block_shape(self):
        return self._block_shape

    @block_shape.setter
    def block_shape(self, value):
        value = [int(b) for b in value]
        for b in value:
            if not _power_of_two(b):
                raise ValueError(f"block_shape must be powers of two, got {value}")
        self._block_shape = value

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        return TensorDescriptor(tensor, tensor.shape, tensor.stride(), block_shape, padding)

    def __repr__(self):
        return f"TensorDescriptor(shape={self.shape}, strides={self.strides}, block_shape={self.block_shape}, padding={self.padding!r}, dtype={self.base.dtype})"

    def _kernel_lab_fields(self, name):
        """What the launch sends for it beside its base tensor (protocol.ts DescriptorFields)."""
        if len(self.block_shape) != len(self.shape):
            raise ValueError(f"argument {name}: block_shape {self.block_shape} has {len(self.block_shape)} axes, its shape {self.shape} has {len(self.shape)}")
        for v in self.shape + self.strides:
            if not -2**31 <= v < 2**31:
                raise ValueError(f"argument {name}: {v} in its shape or strides does not fit in int32 (Kernel Lab's kernels take 32-bit integers)")
        return {"shape": self.shape, "strides": self.strides, "blockShape": list(self.block_shape), "padding": self.padding}
