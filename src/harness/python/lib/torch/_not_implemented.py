# The one way Kernel Lab's torch refuses what it does not have: an error naming the function, never a
# guessed answer.

import functools
import importlib.machinery
import importlib.util
import sys


class NotInKernelLab(NotImplementedError, AttributeError):
    """Also an AttributeError, so `hasattr(torch, "float8_e5m2")` is False as on a torch without it."""


class ModuleNotInKernelLab(NotImplementedError, ModuleNotFoundError):
    """An import of a torch submodule Kernel Lab lacks. Also a ModuleNotFoundError, so a library's
    `try: import torch.distributed.fsdp except ImportError:` fallback still runs; its `name` is left
    unset because `from torch import fft` would otherwise swallow it (importlib's fromlist handling
    skips a ModuleNotFoundError named for the submodule) and say only "cannot import name"; `module`
    names it instead."""

    def __init__(self, module):
        super().__init__(_message(module))
        self.module = module


def _message(name):
    return (f"{name} is not in Kernel Lab's torch (README: Triton in Python, the torch subset); "
            "Kernel Lab never guesses, so the script stops here")


def not_implemented(name):
    raise NotInKernelLab(_message(name))


class UnexpectedKeyword(NotImplementedError, TypeError):
    """A keyword argument a function of Kernel Lab's torch doesn't take: torch's own (an option the
    subset lacks) or a misspelt one, which can't be told apart here. Either way it is refused, never
    ignored (a dropped `dtype=` or `keepdim=` would give another answer without a word). Also a
    TypeError, as Python's own for an unexpected keyword."""


def refuse_keywords(name, kwargs, takes, harmless=("pin_memory",)):
    """kwargs: what a function got beyond the keywords it reads; `harmless` ones change nothing here."""
    for key in kwargs:
        if key not in harmless:
            raise UnexpectedKeyword(
                f"{name}() got the keyword argument {key!r}, which Kernel Lab's {name} doesn't take (it takes "
                f"{takes}; README: Triton in Python, the torch subset). It isn't ignored, as that could change "
                "the answer: leave it out, or, if torch has it, do that step with the ops in the table")


def refuse_missing_dtype(dtype):
    """A tensor of a dtype torch has and Kernel Lab's tensors don't (float64, the float8s) is refused by
    name where storage is made or converted — not a crash in the JS below (unsloth's
    `torch.empty_like(x, dtype=torch.float8_e4m3fn)`)."""
    if getattr(type(dtype), "kernel_lab_missing", False):
        not_implemented(f"tensors of torch.{dtype.name} ({dtype._why})")


def missing_in(module):
    """A torch module's `__getattr__`: a public name it lacks is torch's that Kernel Lab doesn't have
    (NotImplementedError naming it); a private one stays a plain AttributeError, as Python's own
    probes (`__path__`, `__wrapped__`) expect."""
    def __getattr__(name):
        if name.startswith("_"):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        not_implemented(f"{module}.{name}")
    return __getattr__


class MissingSubmodules:
    """A meta path finder for `torch.*` only, right after the path finder: it is asked only when
    Kernel Lab's torch has no file for the submodule (`import torch.fft`, `from torch.nn.modules.utils
    import _pair`), and refuses it by name instead of the finders after it (the script's own folder)
    looking for it or a plain ModuleNotFoundError."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.startswith("torch."):
            raise ModuleNotInKernelLab(fullname)
        return None


def _absent_is_none(find_spec):
    """importlib.util.find_spec answering for a torch submodule Kernel Lab lacks as CPython answers for
    a module that isn't installed: None (the import raises ModuleNotFoundError, so "absent" is what
    that import says too), where the meta path finder above raises to name it on import. A submodule
    of one that is absent still raises, as CPython's does when the parent can't be imported."""
    @functools.wraps(find_spec)
    def absent_is_none(name, package=None):
        try:
            return find_spec(name, package)
        except ModuleNotInKernelLab as e:
            if e.module == (importlib.util.resolve_name(name, package) if name.startswith(".") else name):
                return None
            raise
    absent_is_none.kernel_lab = True
    return absent_is_none


def install_missing_submodules():
    if not getattr(importlib.util.find_spec, "kernel_lab", False):
        importlib.util.find_spec = _absent_is_none(importlib.util.find_spec)
    if any(isinstance(f, MissingSubmodules) for f in sys.meta_path):
        return
    after = next((i + 1 for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder), len(sys.meta_path))
    sys.meta_path.insert(after, MissingSubmodules())
