# torch.amp's decorators for an autograd.Function's forward and backward (unsloth's
# torch_amp_custom_fwd). They matter only under autocast, which Kernel Lab's torch doesn't have, so
# they give the function back as it is, as PyTorch's do with autocast off. autocast itself is refused.


def _identity_decorator(fwd=None, **kwargs):
    if fwd is None:
        return lambda f: f
    return fwd


custom_fwd = _identity_decorator
custom_bwd = _identity_decorator


class autocast:
    refused = True

    def __init__(self, *args, **kwargs):
        from ._tensor import not_implemented
        not_implemented("torch.autocast (Kernel Lab's torch computes in the tensors' own dtypes)")


def is_autocast_enabled(device_type=None):
    """Autocast is never on here (torch.autocast is refused above)."""
    return False


def get_autocast_dtype(device_type):
    """The dtype autocast would use, as torch's defaults: float16 on cuda, bfloat16 on the CPU (never applied here)."""
    from ._dtypes import float16, bfloat16
    return bfloat16 if device_type == "cpu" else float16


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.amp")
