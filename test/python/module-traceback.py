"""An exception raised while a module beside the script imports: the traceback shows that module's
frame (its file and line), as Python's own does, not only the script's import line."""

import host_kit.probe  # noqa: F401
