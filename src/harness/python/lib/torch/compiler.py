# torch.compiler: Kernel Lab's torch compiles nothing, so `@torch.compiler.disable` (unsloth's
# fast_rms_layernorm) leaves the function as it is.


def disable(fn=None, recursive=True, **kwargs):
    if fn is None:
        return lambda f: f
    return fn


def is_compiling():
    return False
