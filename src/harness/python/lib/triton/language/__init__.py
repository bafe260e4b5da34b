# triton.language on the host. A kernel's body is compiled by Kernel Lab, never run by Python, so
# what the host needs is what a module's top level evaluates: `tl.constexpr` (annotations and
# `N = tl.constexpr(4)` globals) and the dtypes. Calling a tl function outside a kernel says so.

from . import math, extra  # noqa: F401
from .extra import libdevice  # noqa: F401,E402 (Triton 2.0's tl.libdevice, kernl's activation_func.py)
import sys as _sys  # noqa: E402

_sys.modules.setdefault("triton.language.libdevice", libdevice)


class constexpr:
    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value}]"

    def __index__(self):
        return self.value

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __bool__(self):
        return bool(self.value)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __hash__(self):
        return hash(self.value)

    def __getattr__(self, name):
        return getattr(self.value, name)


class dtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"triton.language.{self.name}"

    def __str__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def is_floating(self):
        return self.name.startswith(("fp", "bf"))


float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e4nv = dtype("fp8e4nv")
float8e5 = dtype("fp8e5")
# AMD's fp8 formats and Triton's fp8e4b15: named by libraries' dtype tables (gemlite's dtypes.py); like the two above, no kernel computes in them.
float8e4b8 = dtype("fp8e4b8")
float8e5b16 = dtype("fp8e5b16")
float8e4b15 = dtype("fp8e4b15")
class PropagateNan:
    """tl.PropagateNan on the host: a parameter's default `propagate_nan: tl.constexpr = tl.PropagateNan.ALL`
    is evaluated when its module is imported. The members are the strings the compiler lowers
    `tl.PropagateNan.ALL` / `.NONE` to in a kernel's body, so such a default reaches it as the same value."""
    NONE = "none"
    ALL = "all"


tensor = type("tensor", (), {})


class pointer_type:
    """tl.pointer_type(tl.int64) on the host: a kernel parameter's annotation (torchtitan's minimal_async_ep
    kernels.py, `counts: tl.pointer_type(tl.int64)`), evaluated when the module is imported. The compiler reads
    a parameter's type from its launch; in a kernel's body making a pointer of an address is KL1005."""

    def __init__(self, element_ty, address_space=1, const=False):
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const

    def __repr__(self):
        return f"pointer<{self.element_ty}>"

    def __eq__(self, other):
        return isinstance(other, pointer_type) and (other.element_ty, other.const) == (self.element_ty, self.const)

    def __hash__(self):
        return hash(("pointer", self.element_ty, self.const))


block_type = type("block_type", (), {})
from . import core  # noqa: E402,F401 (after the names it re-exports)

# A kernel's `isinstance(x, tl.tensor_descriptor)` is decided by the compiler; on the host nothing is one.
tensor_descriptor_base = type("tensor_descriptor_base", (), {})
tensor_descriptor = type("tensor_descriptor", (tensor_descriptor_base,), {})


def __getattr__(name):
    # A private name is one Triton's own module may or may not have (fla probes
    # `hasattr(tl, '_experimental_make_tensor_descriptor')` before the public name): not a tl function.
    if name.startswith("_"):
        raise AttributeError(f"module 'triton.language' has no attribute '{name}'")

    def outside(*args, **kwargs):
        raise RuntimeError(f"tl.{name} runs only inside a @triton.jit kernel (Kernel Lab compiles the kernel's body; Python never runs it)")
    outside.__name__ = name
    # A module binding it under a name of its own, maybe imported from elsewhere (FlagGems' random_utils:
    # `uint_to_uniform_float = tl.uint_to_uniform_float`), says at a launch which function it is (_jit.py _math_names).
    outside._kernel_lab_tl = name
    return outside
