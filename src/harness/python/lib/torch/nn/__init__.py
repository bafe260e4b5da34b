# torch.nn: the functional ops the tutorials call (torch.nn.functional), Module as a base class
# (nn/_module.py) and the activation layers (nn/_activation.py); torch's other layers are not here.

from . import functional, _reduction, init  # noqa: F401
from ._module import Module, Identity, Parameter  # noqa: F401
from ._activation import GELU, SiLU, ReLU, Sigmoid, Tanh  # noqa: F401


def __getattr__(name):
    from .._tensor import not_implemented
    not_implemented(f"torch.nn.{name}")
