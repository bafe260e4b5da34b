"""A library imported from a folder the script puts on sys.path, as repositories' benchmark and test scripts do
(`sys.path.insert(0, …)` of a folder above or beside them), not from the script's own folder (Kernel Lab's own file).
The package's kernel calls a helper imported from the package by its absolute name and reads a constant imported
relatively. Before, the import was ModuleNotFoundError: only the script's folder was looked in."""

import os
import sys

import torch
import triton

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "sys_path_root"))

from tinylib.ops import scale_add  # noqa: E402

n = 1000
x = torch.rand(n, device="cuda")
y = torch.rand(n, device="cuda")
got = scale_add(x, y)
err = max(abs(g - (2.0 * a + 3.0 * b)) for g, a, b in zip(got.tolist(), x.tolist(), y.tolist()))
assert err < 1e-5, err  # a NaN fails
print("tinylib from sys.path: match")

try:
    import not_on_any_path  # noqa: F401
except ModuleNotFoundError as err:
    print("ModuleNotFoundError:", err.name)
