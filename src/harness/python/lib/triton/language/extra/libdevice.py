# triton.language.extra.libdevice: functions a kernel calls (Kernel Lab compiles them); on the host they say so.


def __getattr__(name):
    def outside(*args, **kwargs):
        raise RuntimeError(f"libdevice.{name} runs only inside a @triton.jit kernel")
    return outside
