# torch.testing.assert_close and torch.allclose: torch's default tolerances per dtype and its
# message; each check is also reported to Kernel Lab (the results panel and --json list it with
# its largest difference and the script's line).

import _kernel_lab_bridge as _bridge
from pyodide.ffi import to_js

import _kernel_lab_state as _state
from . import _dtypes as D
from ._tensor import Tensor

# torch.testing's defaults (rtol, atol).
_DEFAULTS = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5)}


def _report(kind, passed, max_abs):
    line = _state.caller_line()
    if line is not None:
        _bridge.notify(to_js({"kind": "check", "line": line, "check": kind, "passed": bool(passed), "maxAbsDiff": max_abs}, dict_converter=_object))


def _object(entries):
    from js import Object
    return Object.fromEntries(entries)


def _as_tensor(x, like):
    if isinstance(x, Tensor):
        return x
    import torch
    return torch.tensor(x, dtype=like.dtype if isinstance(like, Tensor) else None, device=like.device if isinstance(like, Tensor) else None)


def _closeness(a, b, rtol, atol, equal_nan):
    from ._math import broadcast_shapes
    import _kernel_lab_ops as _js
    shape = broadcast_shapes(a.shape, b.shape)
    return _js.closeness(a._view(), b._view(), to_js(list(shape)), rtol, atol, equal_nan).to_py(), shape


def _allclose(a, b, rtol, atol, equal_nan):
    a, b = _as_tensor(a, b), _as_tensor(b, a)
    result, _ = _closeness(a, b, rtol, atol, equal_nan)
    passed = result["mismatched"] == 0
    _report("allclose", passed, result["maxAbs"])
    return passed


def _position(flat, shape):
    index = []
    for extent in reversed(shape):
        index.append(flat % extent)
        flat //= extent
    return tuple(reversed(index))


def assert_close(actual, expected, *, rtol=None, atol=None, equal_nan=False, check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    actual, expected = _as_tensor(actual, expected), _as_tensor(expected, actual)
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted, but got no rtol." if rtol is None else "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.")
    problem = None
    if actual.shape != expected.shape:
        problem = f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}."
    elif check_device and actual.device != expected.device:
        problem = f"The values for attribute 'device' do not match: {actual.device} != {expected.device}."
    elif check_dtype and actual.dtype is not expected.dtype:
        problem = f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}."
    if problem:
        _report("assert_close", False, None)
        raise AssertionError(msg or problem)
    if rtol is None:
        rtol, atol = max((_DEFAULTS.get(d.name, (0.0, 0.0)) for d in (actual.dtype, expected.dtype)), key=lambda t: t[0])
    result, shape = _closeness(actual, expected, rtol, atol, equal_nan)
    passed = result["mismatched"] == 0
    _report("assert_close", passed, result["maxAbs"])
    if passed:
        return
    total, bad = result["total"], result["mismatched"]
    kind = "Scalars" if not shape else "Tensor-likes"
    lines = [f"{kind} are not close!", "", f"Mismatched elements: {bad} / {total} ({100 * bad / total:.1f}%)",
             f"Greatest absolute difference: {result['maxAbs']} (up to {atol} allowed)",
             f"Greatest relative difference: {result['maxRel']} (up to {rtol} allowed)",
             f"First mismatch at index {_position(result['first'], shape)}"]
    raise AssertionError(msg or "\n".join(lines))


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=False)


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.testing")
