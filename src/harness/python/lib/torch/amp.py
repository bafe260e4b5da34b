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
    """Refused, but where torch itself turns it off: enabled=False, or a float32 dtype on cuda (torch
    warns that CUDA autocast supports only float16 and bfloat16 and disables it; attorch's linear
    backward writes `with torch.autocast('cuda', dtype=ctx.output_dtype):` with float32 outputs)."""
    refused = True

    def __init__(self, device_type=None, dtype=None, enabled=True, cache_enabled=None):
        from ._dtypes import float32
        if enabled and not (device_type == "cuda" and dtype is float32):
            from ._tensor import not_implemented
            not_implemented("torch.autocast (Kernel Lab's torch computes in the tensors' own dtypes)")
        if enabled:
            import warnings
            warnings.warn("In CUDA autocast, but the target dtype is not supported. Disabling autocast.")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn


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
