# The one way Kernel Lab's torch refuses what it does not have: an error naming the function, never a
# guessed answer.


class NotInKernelLab(NotImplementedError, AttributeError):
    """Also an AttributeError, so `hasattr(torch, "float8_e5m2")` is False as on a torch without it."""


def not_implemented(name):
    raise NotInKernelLab(
        f"{name} is not in Kernel Lab's torch (README: Triton in Python, the torch subset); "
        "Kernel Lab never guesses, so the script stops here")


def missing_in(module):
    """A torch module's `__getattr__`: a public name it lacks is torch's that Kernel Lab doesn't have
    (NotImplementedError naming it); a private one stays a plain AttributeError, as Python's own
    probes (`__path__`, `__wrapped__`) expect."""
    def __getattr__(name):
        if name.startswith("_"):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        not_implemented(f"{module}.{name}")
    return __getattr__
