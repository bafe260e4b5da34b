# A kernel library in miniature, written as packages write theirs: relative imports inside it
# (`from .. import utils`, `from ..utils import clamp`, `from . import _math`), a host function
# that launches the package's own kernel (xmod-relative.py calls it and a helper of its own).
