# triton.language.extra: the libdevice modules a kernel imports (`from triton.language.extra import libdevice`).

from . import libdevice, cuda  # noqa: F401
