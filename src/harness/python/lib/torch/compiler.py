# torch.compiler: Kernel Lab's torch compiles nothing, so `@torch.compiler.disable` (unsloth's
# fast_rms_layernorm) leaves the function as it is.


def disable(fn=None, recursive=True, **kwargs):
    if fn is None:
        return lambda f: f
    return fn


def is_compiling():
    return False


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.compiler")
