# Package marker for Kernel Lab's copy of lmdeploy's kernels (test/python/lmdeploy-idioms.py).
