# torch.nn: the functional ops the tutorials call (torch.nn.functional) and Module as a base class
# (nn/_module.py); torch's layers are not here.

from . import functional, _reduction, init  # noqa: F401
from ._module import Module, Identity, Parameter  # noqa: F401


def __getattr__(name):
    from .._tensor import not_implemented
    not_implemented(f"torch.nn.{name}")
