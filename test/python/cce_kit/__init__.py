# apple/ml-cross-entropy's Triton kernels, in part, for test/python/cce-idioms.py (see each file's note).
