# Package marker for Kernel Lab's copy of gpu-mode/lectures' Triton code (test/python/gpumode-idioms.py); the lectures' folders are not packages.
