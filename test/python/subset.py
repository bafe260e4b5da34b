# Lists what Kernel Lab's torch and triton modules define, as JSON on stdout: the README's
# subset table is generated from it (test/support/python-subset.ts), so the table can't drift.
import json

import torch
import torch.nn.functional
import triton
import triton.testing
import triton.tools.tensor_descriptor

_OPERATORS = {"__add__": "+", "__sub__": "-", "__mul__": "*", "__truediv__": "/", "__floordiv__": "//", "__mod__": "%",
              "__pow__": "**", "__matmul__": "@", "__eq__": "==", "__ne__": "!=", "__lt__": "<", "__le__": "<=", "__gt__": ">",
              "__ge__": ">=", "__and__": "&", "__or__": "|", "__xor__": "^", "__invert__": "~", "__neg__": "-x",
              "__abs__": "abs()", "__getitem__": "[…]", "__setitem__": "[…] =", "__lshift__": "<<", "__rshift__": ">>"}


def public(obj, skip=()):
    names = []
    for name, value in members(obj).items():
        # Imports, and names kept only to refuse with a message (torch.empty_strided, Tensor.numpy…), aren't in the subset.
        if name.startswith("_") or name in skip or type(value).__name__ == "module" or getattr(value, "refused", False):
            continue
        names.append(name)
    return sorted(names)


def members(obj):
    """What obj defines; for a class, with what its mixins define (torch.Tensor's views and conversions)."""
    if not isinstance(obj, type):
        return vars(obj)
    found = {}
    for cls in reversed(obj.__mro__[:-1]):
        found.update(vars(cls))
    return found


# Dtypes that can only be named and compared (float64, the fp8 ones) have no tensors: not in the subset.
missing = {n for n, v in vars(torch).items() if isinstance(v, torch._Missing)}
dtypes = sorted(n for n, v in vars(torch).items() if isinstance(v, torch.dtype) and n not in missing)
tensor = sorted(public(torch.Tensor) + ["dtype", "device", "shape"])
tensor = sorted(set(tensor))
operators = [symbol for dunder, symbol in _OPERATORS.items() if dunder in members(torch.Tensor)]
print(json.dumps({
    "torch": [n for n in public(torch) if n not in dtypes and n not in missing and n not in ("Tensor", "Size", "dtype", "device", "not_implemented")],
    "torch dtypes": dtypes,
    "torch.Tensor": tensor,
    "torch.Tensor operators": operators,
    "torch.nn": public(torch.nn, ("not_implemented",)),
    "torch.nn.functional": public(torch.nn.functional, ("attach", "refuse_grad", "not_implemented")),
    "torch.nn.init": public(torch.nn.init, ("no_grad", "not_implemented")),
    "torch.testing": public(torch.testing, ("Tensor", "to_js")),
    "torch.cuda": public(torch.cuda),
    "torch.random": public(torch.random),
    "torch.special": public(torch.special),
    "torch.utils._triton": public(torch.utils._triton),
    "torch.distributed": public(torch.distributed) + ["tensor.DTensor (nothing is one)"],
    "torch.autograd": ["Function", "no_grad", "enable_grad", "backward (Tensor.backward)"],
    "triton": [n for n in public(triton) if n not in ("JITFunction",)],
    "triton.testing": public(triton.testing, ("Table", "to_js")),
    "triton.tools.tensor_descriptor": ["TensorDescriptor", "TensorDescriptor.from_tensor", "TensorDescriptor.block_shape (settable)"],
    "triton.runtime.driver.active": [n for n in dir(triton.runtime.driver.active) if not n.startswith("_")],
    "triton.runtime.driver": ["active", "utils (Triton 2.x's name for active.utils)"] if triton.runtime.driver.utils is triton.runtime.driver.active.utils else ["active"],
}))
