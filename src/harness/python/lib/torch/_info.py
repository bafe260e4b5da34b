# torch.finfo / torch.iinfo for Kernel Lab's dtypes: the numbers IEEE 754 and two's complement give
# (as torch's, e.g. FlagGems' weight norm passes `eps=torch.finfo(torch.float32).tiny`), also of
# float64 and int16, which Kernel Lab has no tensors of, and the two float8s (OCP FP8's numbers); any
# other such dtype raises NotImplementedError naming it.

from . import _dtypes
from ._tensor import not_implemented


def _known(type, kind):  # noqa: A002
    # torch has them, Kernel Lab's tensors don't (torch._Missing carries why).
    if type.name not in _FLOATS and type.name not in _INTS and hasattr(type, "_why"):
        not_implemented(f"torch.{kind}(torch.{type.name}) ({type._why})")

# name → (bits, eps, max, tiny (smallest normal), resolution)
_FLOATS = {
    "float32": (32, 2.0 ** -23, (2 - 2.0 ** -23) * 2.0 ** 127, 2.0 ** -126, 1e-06),
    "float16": (16, 2.0 ** -10, 65504.0, 2.0 ** -14, 0.001),
    "bfloat16": (16, 2.0 ** -7, (2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -126, 0.01),
    # No tensors of it, but its numbers are IEEE 754's (FlagGems' topk reads them at import).
    "float64": (64, 2.0 ** -52, (2 - 2.0 ** -52) * 2.0 ** 1023, 2.0 ** -1022, 1e-15),
    # OCP FP8's formats, as torch's finfo gives them (vllm's attention kernels take
    # `torch.finfo(current_platform.fp8_dtype()).max` as a constexpr default at import).
    "float8_e4m3fn": (8, 2.0 ** -3, 448.0, 2.0 ** -6, 1.0),
    "float8_e5m2": (8, 2.0 ** -2, 57344.0, 2.0 ** -14, 1.0),
}
_INTS = {"int32": (32, True), "int64": (64, True), "int8": (8, True), "uint8": (8, False), "uint32": (32, False), "int16": (16, True)}


class finfo:
    def __init__(self, type=None):  # noqa: A002 (torch's parameter name)
        type = _dtypes.float32 if type is None else type
        _known(type, "finfo")
        if type.name not in _FLOATS:
            raise TypeError(f"torch.finfo() requires a floating point input type, got {type!r}; use torch.iinfo to handle '{type.name}'")
        self.dtype = type.name
        self.bits, self.eps, self.max, self.tiny, self.resolution = _FLOATS[type.name]
        self.min = -self.max
        self.smallest_normal = self.tiny

    def __repr__(self):
        return f"finfo(resolution={self.resolution}, min={self.min:.6e}, max={self.max:.6e}, eps={self.eps:.6e}, smallest_normal={self.tiny:.6e}, tiny={self.tiny:.6e}, dtype={self.dtype})"


class iinfo:
    def __init__(self, type):  # noqa: A002
        _known(type, "iinfo")
        if type.name not in _INTS:
            raise TypeError(f"torch.iinfo() requires an integer input type, got {type!r}; use torch.finfo to handle '{type.name}'")
        self.dtype = type.name
        self.bits, signed = _INTS[type.name]
        self.min = -(2 ** (self.bits - 1)) if signed else 0
        self.max = 2 ** (self.bits - 1) - 1 if signed else 2 ** self.bits - 1

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"
