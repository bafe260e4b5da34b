# torch.nn: the functional ops the tutorials call (torch.nn.functional); modules are not here.

from . import functional, _reduction  # noqa: F401


def __getattr__(name):
    from .._tensor import not_implemented
    not_implemented(f"torch.nn.{name}")
