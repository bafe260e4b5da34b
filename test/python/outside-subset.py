"""What Kernel Lab's torch lacks (a function, a Tensor method, a name in one of its submodules) stops
the script with NotImplementedError naming it and pointing to the README's list (never a stand-in's
wrong answer), and is an AttributeError too, so a library's `hasattr` probe sees it missing as on a
torch without it. A private name is a plain AttributeError. An import of a torch submodule it lacks
raises the same error, also a ModuleNotFoundError; other modules' imports are left to Python.
importlib.util.find_spec of such a submodule is None, as of a module that isn't installed. A keyword
argument a function doesn't take is refused (NotImplementedError and TypeError), never dropped."""

import torch
import torch.nn.functional as F

x = torch.rand(7, 5)
missing = [
    ("torch.Tensor.roll", lambda: x.roll(2, 1)),
    ("torch.Tensor.scatter_", lambda: x.scatter_),
    ("torch.fft", lambda: torch.fft),
    ("torch.nn.functional.max_pool2d", lambda: F.max_pool2d),
    ("torch.Tensor.unfold", lambda: x.unfold(0, 2, 1)),
    # torch's submodules, each a module of its own here.
    ("torch.cuda.set_per_process_memory_fraction", lambda: torch.cuda.set_per_process_memory_fraction(0.5)),
    ("torch.autograd.grad", lambda: torch.autograd.grad),
    ("torch.testing.make_tensor", lambda: torch.testing.make_tensor),
    ("torch.amp.GradScaler", lambda: torch.amp.GradScaler),
    ("torch.backends.mps", lambda: torch.backends.mps),
    ("torch.compiler.reset", lambda: torch.compiler.reset),
    ("torch.distributed.all_reduce", lambda: torch.distributed.all_reduce),
    ("torch.distributed.tensor.zeros", lambda: torch.distributed.tensor.zeros),
]


def expect_refused(name, use, also):
    """`use()` raises NotImplementedError naming `name` and pointing to the README, also an `also`."""
    try:
        use()
    except NotImplementedError as e:
        message = str(e)
        assert message.startswith(f"{name} is not in Kernel Lab's torch"), message
        assert "README" in message, message
        assert isinstance(e, also)
    else:
        raise AssertionError(f"{name} did not raise")


for name, use in missing:
    expect_refused(name, use, AttributeError)
assert not hasattr(x, "roll") and not hasattr(torch, "fft")
assert hasattr(x, "shape") and hasattr(x, "sum")
for private in (lambda: x._not_an_attribute, lambda: torch.cuda._not_an_attribute, lambda: torch.distributed.tensor.__wrapped__):
    try:
        private()
    except AttributeError as e:
        assert not isinstance(e, NotImplementedError), "a private name is a plain AttributeError"
    else:
        raise AssertionError("a private name that does not exist")

# An import of a torch submodule Kernel Lab has no file for: the same error, naming the module, and a
# ModuleNotFoundError too, so a library's `try: import … except ImportError:` fallback still runs.
imports = [
    ("torch.fft", "import torch.fft"),
    ("torch.nn.modules", "from torch.nn.modules.utils import _pair"),
    ("torch.utils.checkpoint", "from torch.utils.checkpoint import checkpoint"),
    ("torch.fft", "from torch import fft"),
    ("torch.distributed.fsdp", "import torch.distributed.fsdp as fsdp"),
]
for name, statement in imports:
    expect_refused(name, lambda: exec(statement, {}), ModuleNotFoundError)
try:
    import torch.linalg  # noqa: F401
except ImportError:
    fallback = True
assert fallback
import torch.nn.functional  # noqa: E402,F401 (a submodule Kernel Lab has still imports)
from torch.distributed import tensor  # noqa: E402,F401
import importlib  # noqa: E402
try:
    importlib.import_module("not_torch_at_all")
except ModuleNotFoundError as e:
    assert not isinstance(e, NotImplementedError), "a name outside torch. is left to Python"
else:
    raise AssertionError("not_torch_at_all imported")
# importlib.util.find_spec answers as CPython's for a module that isn't installed: None for a torch
# submodule Kernel Lab lacks (its import raises ModuleNotFoundError), a spec for one it has; below a
# submodule it lacks, find_spec raises as CPython's does when the parent can't be imported.
import importlib.util  # noqa: E402
for absent in ("torch.fft", "torch.linalg", "torch.distributed.fsdp"):
    assert importlib.util.find_spec(absent) is None, absent
for present in ("torch.nn.functional", "torch.cuda", "triton.language"):
    assert importlib.util.find_spec(present).name == present, present
try:
    importlib.util.find_spec("torch.nn.modules.utils")
except ModuleNotFoundError as e:
    assert str(e).startswith("torch.nn.modules is not in Kernel Lab's torch"), e
else:
    raise AssertionError("find_spec below an absent module returned")

# A keyword argument a function doesn't take is refused, never dropped: `x.sum(dims=1)` summed
# everything, `torch.zeros(3, dtpye=torch.int32)` made float32, without a word. The error is a
# NotImplementedError (torch may have it) and a TypeError (it may be misspelt), naming the keyword.
keywords = [
    ("torch.Tensor.sum", "dims", lambda: x.sum(dims=1)),
    ("torch.Tensor.mean", "keep_dim", lambda: x.mean(1, keep_dim=True)),
    ("torch.Tensor.sum", "foo", lambda: torch.sum(x, dim=0, foo=1)),
    ("torch.zeros", "dtpye", lambda: torch.zeros(3, dtpye=torch.int32)),
    ("torch.full", "layout", lambda: torch.full((2,), 1.0, layout=None)),
    ("torch.empty_like", "devise", lambda: torch.empty_like(x, devise="cuda")),
    ("torch.randn_like", "generator", lambda: torch.randn_like(x, generator=None)),
    ("torch.arange", "dtyp", lambda: torch.arange(5, dtyp=torch.float32)),
    ("torch.tensor", "pinned", lambda: torch.tensor([1.0], pinned=True)),
    ("torch.Tensor.to", "memory_format", lambda: x.to(torch.float16, memory_format=None)),
    ("torch.nn.functional.softmax", "dims", lambda: F.softmax(x, dims=0)),
]
for name, key, use in keywords:
    try:
        use()
    except NotImplementedError as e:
        assert isinstance(e, TypeError), name
        assert str(e).startswith(f"{name}() got the keyword argument {key!r}, which Kernel Lab's {name} doesn't take"), str(e)
    else:
        raise AssertionError(f"{name}({key}=…) was accepted")
# The keywords they do take, torch's alias `axis=` and the ones that change nothing here.
assert x.sum(axis=0).shape == (5,) and x.mean(dim=1, keepdim=True).shape == (7, 1)
assert torch.empty(2, pin_memory=True).shape == (2,) and torch.zeros_like(x, requires_grad=True).requires_grad
assert torch.full_like(x, 2.0, requires_grad=True).requires_grad and torch.randint(0, 5, (3,), generator=None).shape == (3,)
assert x.to(torch.float16, non_blocking=True).dtype == torch.float16 and x.to(dtype=torch.float16).dtype == torch.float16
copied = x.to(x.dtype, copy=True)
assert copied is not x and copied.tolist() == x.tolist() and x.to(x.dtype) is x
assert F.softmax(x, axis=0).sum(dim=0).tolist() == torch.softmax(x, dim=0).sum(dim=0).tolist()
print("outside the subset: NotImplementedError, named")
