# Package marker for Kernel Lab's copy of FlagGems' ops (test/python/flaggems-idioms.py).
