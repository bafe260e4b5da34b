# Copied from https://github.com/shawntan/scattermoe at 47b5e150, scattermoe/__init__.py (Apache-2.0, by Shawn Tan and its contributors; the license:
# scattermoe_kit/LICENSE), for Kernel Lab's test/python/scattermoe-idioms.py.
# Unchanged (its imports are relative).
from .parallel_experts import flatten_sort_count, parallel_linear, ParallelExperts
from . import parallel_experts
from . import kernels
from . import mlp
from . import utils

__all__ = [
    "flatten_sort_count",
    "parallel_linear",
    "ParallelExperts",
    "parallel_experts",
    "kernels",
    "mlp",
    "utils"
]
