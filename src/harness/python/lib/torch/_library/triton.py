# torch._library.triton: torch.library.triton_op and wrap_triton (torch ≥ 2.6; capture_triton is
# wrap_triton's older name). In torch, wrap_triton makes a kernel launch traceable by torch.compile
# and triton_op registers a custom op whose body launches kernels; nothing is traced here, so
# wrap_triton hands the kernel back and triton_op is custom_op (flash-attention's layer_norm.py and
# rotary.py launch through them).

import contextlib

from ..library import custom_op

_wrap_triton_enabled = [True]


def wrap_triton(triton_kernel, /):
    return triton_kernel


def capture_triton(triton_kernel, /):
    # torch 2.6's older name for wrap_triton (still exported).
    return wrap_triton(triton_kernel)


def triton_op(name, fn=None, /, *, mutates_args, schema=None):
    return custom_op(name, fn, mutates_args=mutates_args, schema=schema)


def is_wrap_triton_enabled():
    return _wrap_triton_enabled[-1]


@contextlib.contextmanager
def set_wrap_triton_enabled(enabled):
    _wrap_triton_enabled.append(bool(enabled))
    try:
        yield
    finally:
        _wrap_triton_enabled.pop()


from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._library.triton")
