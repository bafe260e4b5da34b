# Package marker (aiter/jit/__init__.py holds only its license header).
