# The one way Kernel Lab's triton reaches the GPU: a request to the main thread, answered before
# the script goes on (the Python thread sleeps meanwhile, or in a browser waits on the promise; protocol.ts). A failed launch becomes
# the Python exception its kind names.

import json

import _kernel_lab_bridge as _bridge
from js import Object
from pyodide.ffi import to_js


class TritonError(Exception):
    """triton.TritonError: the base of Triton's compiler errors (test_core.py's tests catch it around a kernel it refuses)."""


class KernelLabError(RuntimeError):
    """A launch that Kernel Lab stopped: the message names the kernel's line in the script."""

    kernel_lab_kind = "runtime"


class OutOfBoundsError(KernelLabError):
    """KL3101: a tl.load or tl.store touched an element outside its tensor."""

    kernel_lab_kind = "out-of-bounds"


class DeviceAssertError(KernelLabError):
    """KL3110: a tl.device_assert failed."""

    kernel_lab_kind = "assert"


class CompilationError(KernelLabError, TritonError):
    """The kernel has compile errors (the diagnostics are in the message, each at its line)."""

    kernel_lab_kind = "compile"


class OutOfResources(CompilationError):
    """KL2016 alone: the kernel's blocks need more workgroup memory than the adapter has (Triton's
    triton.runtime.errors.OutOfResources, which its autotuner catches to drop the config)."""


class LaunchTaken(BaseException):
    """The debugger took this launch (its arguments, its grid): the script stops here, past any `except Exception`."""

    kernel_lab_kind = "stopped"


_ERRORS = {"stopped": LaunchTaken, "out-of-bounds": OutOfBoundsError, "assert": DeviceAssertError, "compile": CompilationError, "out-of-resources": OutOfResources, "runtime": KernelLabError, "not-implemented": NotImplementedError}


def call(request):
    raw = _bridge.call(to_js(request, dict_converter=Object.fromEntries))
    if not isinstance(raw, str):
        # The browser's worker has one thread: the reply is a promise, waited on through WebAssembly
        # JSPI (the script runs under callPromising there; web-python.ts).
        from pyodide.ffi import run_sync

        raw = run_sync(raw)
    reply = json.loads(raw)
    if reply["kind"] == "error":
        raise _ERRORS[reply["error"]](reply["message"])
    return reply.get("value")


def notify(notice):
    """Posts a notice to the main thread; nothing comes back."""
    _bridge.notify(to_js(notice, dict_converter=Object.fromEntries))


def now_ms():
    return _bridge.now()
