# Package marker for Kernel Lab's copy of lmdeploy's kernels (test/python/lmdeploy-idioms.py); lmdeploy's own __init__.py files import the whole engine.
