# The one way Kernel Lab's torch refuses what it does not have: an error naming the function, never a
# guessed answer.


class NotInKernelLab(NotImplementedError, AttributeError):
    """Also an AttributeError, so `hasattr(torch, "float8_e5m2")` is False as on a torch without it."""


def not_implemented(name):
    raise NotInKernelLab(
        f"{name} is not in Kernel Lab's torch (README: Triton in Python, the torch subset); "
        "Kernel Lab never guesses, so the script stops here")
