# torch.jit: TorchScript compiles a function or module to the same eager semantics; Kernel Lab's torch
# runs Python as it is, so `@torch.jit.script` (ring-flash-attention's utils.py) leaves the function as it is.


def script(obj=None, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    return obj


def ignore(drop=False, **kwargs):
    # @torch.jit.ignore and @torch.jit.ignore(drop=True): the function itself.
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def is_scripting():
    return False


def is_tracing():
    return False


# A name torch has and this module lacks (trace, load, save…): NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.jit")
