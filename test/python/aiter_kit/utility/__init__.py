# Package marker (aiter/utility has no __init__.py in aiter: a namespace package).
