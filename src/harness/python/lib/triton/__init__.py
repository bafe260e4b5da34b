# Kernel Lab's triton: @triton.jit kernels compiled by Kernel Lab to WGSL and run checked on the
# GPU (or the interpreter with --cpu), and the host-side helpers Triton's tutorials use
# (README: Triton in Python).

from ._jit import jit, heuristics, JITFunction, KernelInterface  # noqa: F401
from ._autotuner import autotune, Config  # noqa: F401
from . import _autotuner
from ._bridge import KernelLabError, OutOfBoundsError, DeviceAssertError, CompilationError, OutOfResources, TritonError  # noqa: F401
from . import language, testing, runtime, compiler, tools  # noqa: F401

__version__ = "3.4.0+kernellab"


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


_allocator = None


def set_allocator(allocator):
    """
    Triton's kernels that make tensor descriptors on the device (tl.make_tensor_descriptor) need
    scratch memory from this allocator; Kernel Lab's read a descriptor as a block pointer and need
    none, so the allocator is kept and never called.
    """
    global _allocator
    _allocator = allocator


def _kernel_lab_reset():
    """A new run of a script: the notes said once a run are said again."""
    testing._said.clear()
    _autotuner._said.clear()


def constexpr_function(fn):
    """
    Triton 3.5's mark for a Python function a kernel calls while compiling (TransformerEngine's
    permutation.py wraps `core.get_int_dtype` in it on Triton ≥ 3.5). The function is returned as it
    is; Kernel Lab evaluates the ones it knows (README) while compiling.
    """
    return fn
