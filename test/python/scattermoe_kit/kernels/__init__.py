# Copied from https://github.com/shawntan/scattermoe at 47b5e150, scattermoe/kernels/__init__.py (Apache-2.0, by Shawn Tan and its contributors; the license:
# scattermoe_kit/LICENSE), for Kernel Lab's test/python/scattermoe-idioms.py.
# Unchanged (its imports are relative).
from . import ops

__all__ = ["ops"]