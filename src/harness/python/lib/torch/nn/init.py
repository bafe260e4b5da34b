# torch.nn.init: the in-place fills a module's reset_parameters calls (mamba's norms: ones_, zeros_;
# scattermoe's experts: normal_), outside autograd as torch's are. Other random initialisers aren't
# here: they are refused by name.

from .._autograd import no_grad
from .._not_implemented import not_implemented


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with no_grad():
        return tensor.normal_(mean, std)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with no_grad():
        return tensor.uniform_(a, b)


def __getattr__(name):
    not_implemented(f"torch.nn.init.{name}")
