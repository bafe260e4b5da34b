# torch.nn.Module, only as far as libraries' host code needs it without torch's layers: a type to
# annotate with, test with isinstance and subclass (a layer-like object holding its weights as plain
# attributes or nn.Parameter, called as `layer(x)` → `forward(x)`). Torch's bookkeeping (parameters(), to(),
# state_dict(), hooks) isn't here: a name it lacks is refused by name, never a plain AttributeError.

from .._not_implemented import not_implemented
from .._tensor import Tensor


class Module:
    training = True

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def register_parameter(self, name, param):
        # As torch: None registers the name (mamba's RMSNorm: register_parameter("bias", None)).
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' (torch.nn.Parameter or None required)")
        object.__setattr__(self, name, param)

    def register_buffer(self, name, tensor, persistent=True):
        object.__setattr__(self, name, tensor)

    def __getattr__(self, name):
        # Reached only for a name neither the instance nor its class has.
        if name.startswith("_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        not_implemented(f"torch.nn.Module.{name}")


class Parameter(Tensor):
    """torch.nn.Parameter: `data`'s storage, as a tensor that requires grad unless told not to; a
    module's weights (mamba's RMSNorm holds `nn.Parameter(torch.empty(hidden_size, …))`). Ops on it
    give plain tensors, as torch's do."""

    def __new__(cls, data=None, requires_grad=True):
        from .._creation import empty
        param = (data if data is not None else empty(0)).detach()
        param.__class__ = cls
        param.requires_grad = requires_grad
        return param

    def __init__(self, data=None, requires_grad=True):
        pass

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


class Identity(Module):
    """torch.nn.Identity: its input, whatever arguments it was made with (peft's no-dropout marker)."""

    def forward(self, input):
        return input
