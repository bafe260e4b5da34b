# Copied from https://github.com/shawntan/scattermoe at 47b5e150, scattermoe/utils/__init__.py (Apache-2.0, by Shawn Tan and its contributors; the license:
# scattermoe_kit/LICENSE), for Kernel Lab's test/python/scattermoe-idioms.py.
# Unchanged (its imports are relative).
from . import replace_moe

__all__ = ['replace_moe']