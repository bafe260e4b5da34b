"""A package object the script registers itself, as library drivers do where a package's __init__ can't run (unsloth's,
native_sparse_attention's: it imports transformers): `types.ModuleType` in sys.modules with `__path__` the folder beside
the script as `os.path.dirname(__file__)` names it, then a module of it imported (xmod_helpers/limits.py), the
package's own __init__ never run. Was ModuleNotFoundError: that folder isn't in Pyodide's file system. And a module of
a folder in it without __init__.py (xmod_helpers/ns_part/scaling.py, a namespace package: tritonbench's
operators/sum/kernels.py under a stand-in for tritonbench.operators), also ModuleNotFoundError before."""
import os
import sys
import types

pkg = types.ModuleType("xmod_helpers")
pkg.__path__ = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "xmod_helpers")]
sys.modules["xmod_helpers"] = pkg

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from xmod_helpers.limits import clamp_min  # noqa: E402
from xmod_helpers.ns_part.scaling import doubled  # noqa: E402

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def clamp_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    tl.store(Y + offs, doubled(clamp_min(x, 0.0)), mask=offs < n)


x = torch.randn(100, device=DEVICE)
y = torch.empty_like(x)
clamp_kernel[(triton.cdiv(100, 64),)](x, y, 100, BLOCK=64)
torch.testing.assert_close(y, torch.clamp(x, min=0.0) * 2)
print("a module of a package the script registered: imported and run")
