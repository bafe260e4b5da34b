# As trident/language/__init__.py: a submodule by name, the rest by `from .x import *`.
from . import math
from .combine import *
from .constant import *
from .rowsum import *
