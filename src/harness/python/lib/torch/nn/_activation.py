# torch.nn's activation layers, as modules over torch.nn.functional (scattermoe's MLP takes one as an
# argument, `activation=nn.GELU()`, and GLUMLP defaults to `nn.SiLU()`); gelu and silu carry a backward.

from . import functional as F
from ._module import Module


class GELU(Module):
    def __init__(self, approximate="none"):
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    def __init__(self, inplace=False):
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input)


class ReLU(Module):
    def __init__(self, inplace=False):
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input)


class Sigmoid(Module):
    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return F.tanh(input)
