# triton.language.math: names a kernel calls (Kernel Lab compiles them); on the host they say so.


def __getattr__(name):
    def outside(*args, **kwargs):
        raise RuntimeError(f"tl.math.{name} runs only inside a @triton.jit kernel")
    # What a kernel's module binds it to (`rsqrt = shim.rsqrt`) says at a launch which function it is (_jit.py _math_names).
    outside.__name__ = name
    outside._kernel_lab_math = name
    return outside
