# Package marker (aiter/jit/utils/__init__.py holds only its license header).
