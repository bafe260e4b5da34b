# torch._subclasses: only `functional_tensor.FunctionalTensorMode`, which a custom op registers a
# dispatch rule for (flash-attention's triton_op); its other submodules are refused by name.

from . import functional_tensor  # noqa: F401

from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._subclasses")
