# flash-linear-attention's ops/utils/op.py style: @triton.jit helpers defined inside module-level
# branches, the one Python binds chosen by the environment or by what triton.language has.
import os

import triton
import triton.language as tl

if os.environ.get("FLA_KIT_TRIPLE", "0") == "1":
    @triton.jit
    def scaled(x): return x * 3.0
else:
    @triton.jit
    def scaled(x): return x * 2.0

if not hasattr(tl, "maximum"):
    @triton.jit
    def larger(a, b):
        return a
else:
    larger = tl.maximum


# fla's ops/utils/softplus.py: the public name bound to one of two @triton.jit functions by the vendor.
@triton.jit
def halved_exactly(x):
    return x * 0.5


@triton.jit
def halved_roughly(x):
    return x * 0.25


if hasattr(tl, "maximum"):
    halved = halved_exactly
else:
    halved = halved_roughly
