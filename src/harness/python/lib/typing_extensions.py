# A stand-in for the `typing_extensions` package (Pyodide ships no copy; every torch install has one, so libraries
# import it freely: apple/ml-cross-entropy's vocab_parallel/utils.py takes `Self` from it). Pyodide's Python is new
# enough that `typing` has each name typing_extensions backports; a name `typing` lacks is an AttributeError naming it.

import typing as _typing
from typing import *  # noqa: F401,F403


def __getattr__(name):
    try:
        return getattr(_typing, name)
    except AttributeError:
        raise AttributeError(f"Kernel Lab's typing_extensions stand-in re-exports the standard `typing`, which has no {name!r}") from None
