# databricks/megablocks' Triton kernels (backend/kernels.py), for test/python/megablocks-idioms.py.
