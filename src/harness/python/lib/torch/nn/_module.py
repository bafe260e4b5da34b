# torch.nn.Module, only as far as libraries' host code needs it without torch's layers: a type to
# annotate with, test with isinstance and subclass (a layer-like object holding its weights as plain
# attributes, called as `layer(x)` → `forward(x)`). Torch's bookkeeping (parameters(), to(),
# state_dict(), hooks) isn't here: a name it lacks is refused by name, never a plain AttributeError.

from .._not_implemented import not_implemented


class Module:
    training = True

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __getattr__(self, name):
        # Reached only for a name neither the instance nor its class has.
        if name.startswith("_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        not_implemented(f"torch.nn.Module.{name}")


class Identity(Module):
    """torch.nn.Identity: its input, whatever arguments it was made with (peft's no-dropout marker)."""

    def forward(self, input):
        return input
