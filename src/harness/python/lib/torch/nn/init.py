# torch.nn.init: the in-place fills a module's reset_parameters calls (mamba's norms: ones_, zeros_),
# outside autograd as torch's are. Random initialisers aren't here: they are refused by name.

from .._autograd import no_grad
from .._not_implemented import not_implemented


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def __getattr__(name):
    not_implemented(f"torch.nn.init.{name}")
