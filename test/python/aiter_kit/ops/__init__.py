# Package marker (aiter/ops/__init__.py holds only its license header).
