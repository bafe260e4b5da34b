# torch.version: what library code reads to pick a platform. Not a CUDA or ROCm build: `hip` is None
# (Liger's is_hip() is False, so it takes its CUDA-style settings) and so is `cuda`, so no path that
# needs CUDA's own libraries is taken.

__version__ = "2.5.0+kernellab"
hip = None
cuda = None
git_version = "kernellab"
debug = False


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.version")
