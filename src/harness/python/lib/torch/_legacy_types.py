# torch.FloatTensor and its kin: the legacy tensor types library code names in annotations
# (Liger's `weight: Optional[torch.FloatTensor]`) and tests with isinstance. `isinstance(x,
# torch.FloatTensor)` asks for a float32 tensor, as in PyTorch; making one this way is refused.

from . import _dtypes
from ._tensor import Tensor, not_implemented


class _LegacyType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls._dtype

    def __call__(cls, *args, **kwargs):
        not_implemented(f"torch.{cls.__name__}(…) (make tensors with torch.tensor, torch.empty, … and a dtype)")


def _legacy(name, dtype):
    return _LegacyType(name, (), {"_dtype": dtype, "refused": False})


FloatTensor = _legacy("FloatTensor", _dtypes.float32)
HalfTensor = _legacy("HalfTensor", _dtypes.float16)
BFloat16Tensor = _legacy("BFloat16Tensor", _dtypes.bfloat16)
IntTensor = _legacy("IntTensor", _dtypes.int32)
LongTensor = _legacy("LongTensor", _dtypes.int64)
CharTensor = _legacy("CharTensor", _dtypes.int8)
ByteTensor = _legacy("ByteTensor", _dtypes.uint8)
BoolTensor = _legacy("BoolTensor", _dtypes.bool_)
