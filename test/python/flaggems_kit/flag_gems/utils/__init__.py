# Kernel Lab's stand-in for flag_gems.utils: libentry() is FlagGems' launch cache (the identity here, as a run
# compiles each specialization once anyway), tl_extra_shim the libdevice its nvidia backend selects.
from triton.language.extra import libdevice as tl_extra_shim  # noqa: F401


def libentry():
    return lambda fn: fn
