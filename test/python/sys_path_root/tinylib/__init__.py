"""A package found only through a folder the script puts on sys.path (test/python/sys-path-imports.py)."""
