# triton.language.extra.cuda: the CUDA spelling of the libdevice import.

from . import libdevice  # noqa: F401
