# A stand-in for numpy, which Kernel Lab's Pyodide doesn't load: kernel libraries import it at the top of a module whose
# Triton path never touches it (MInference's block_sparse_flash_attention.py: `import numpy as np`, unused). The import
# succeeds; any name read from it is refused saying so (also an AttributeError, so `hasattr(np, "ndarray")` is False),
# never a guessed answer.

__version__ = "0.0.0+kernellab-stand-in"


class NotInKernelLab(NotImplementedError, AttributeError):
    pass


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotInKernelLab(f"numpy.{name} is not in Kernel Lab (its Python has no numpy: only the import of it succeeds); "
                         "do this step with Kernel Lab's torch, or in the kernel")
