# torch._inductor.async_compile: `async_compile.triton('name', '''source''', device_str='cuda')`, as the
# output code of torch.compile writes each kernel, and `async_compile.wait(globals())`. Inductor writes the
# source to its cache folder and imports it as a module; here the source is run as a module of its own too,
# compiled from the text of the file that holds it, at the lines it sits on there (the triple-quoted string
# is found in that file), so a diagnostic in a generated kernel names the output file's line. A source not
# found there verbatim (built at run time) is compiled as it is, named `<inductor NAME>`. Every kernel is
# ready when triton() returns: wait() has nothing to wait for. The other backends' kernels (C++, CUDA C,
# Halide) can't be compiled to WGSL and refuse by name.

import linecache
import sys
import types

import _kernel_lab_state as _state

from .._not_implemented import not_implemented

_generated = [0]


def _where(frame, source):
    """The file holding `source` as a literal (the script or a module beside it): (its name as shown, its text)."""
    import _kernel_lab_imports
    file = frame.f_code.co_filename
    if file == _state.file_name:
        return _state.file_name, "".join(linecache.getlines(_state.file_name))
    known = _kernel_lab_imports.shown.get(file)
    if known is None:
        return None, None
    with open(file) as f:
        return known[1], f.read()


def _at_its_lines(text, source, call_line):
    """The module text that puts `source` at the lines it has in `text` (blank lines before), or None."""
    starts = []
    at = text.find(source)
    while at >= 0:
        starts.append(at)
        at = text.find(source, at + 1)
    if not starts:
        return None
    line_of = [text.count("\n", 0, s) for s in starts]
    # The literal nearest after the call's first line (a file may hold one source twice).
    pick = min(range(len(starts)), key=lambda i: (line_of[i] + 1 < call_line, abs(line_of[i] + 1 - call_line)))
    return "\n" * line_of[pick] + source


def load_kernel(kernel_name, source_code, frame):
    """Runs `source_code` as a module and gives its `kernel_name` (the decorated kernel)."""
    from triton._jit import JITFunction, _jit_lines
    shown, text = _where(frame, source_code)
    module_text = _at_its_lines(text, source_code, frame.f_lineno) if text is not None else None
    if module_text is None:
        shown, module_text = f"<inductor {kernel_name}>", source_code
    _generated[0] += 1
    name = f"_kernel_lab_inductor_{_generated[0]}_{kernel_name}"
    code_file = f"<inductor {kernel_name} #{_generated[0]}>"
    linecache.cache[code_file] = (len(module_text), None, module_text.splitlines(True), code_file)
    module = types.ModuleType(name)
    module.__file__ = code_file
    sys.modules[name] = module
    exec(compile(module_text, code_file, "exec"), module.__dict__)
    sent = {"file": shown, "text": module_text, "name": name, "user": True, "jitLines": _jit_lines(module)}
    for value in list(vars(module).values()):
        for _ in range(4):  # through the heuristics' autotuner to the JITFunction
            if isinstance(value, JITFunction) or value is None:
                break
            value = getattr(value, "fn", None)
        if isinstance(value, JITFunction) and value.fn.__module__ == name:
            value._module = sent
    if not hasattr(module, kernel_name):
        raise AttributeError(f"async_compile.triton({kernel_name!r}, …): the source defines no {kernel_name!r}")
    return getattr(module, kernel_name)


class AsyncCompile:
    def __init__(self):
        pass

    @staticmethod
    def warm_pool():
        pass

    @classmethod
    def use_process_pool(cls):
        return False

    def triton(self, kernel_name, source_code, device_str="cuda", **kwargs):
        if device_str not in ("cuda", "xpu", "hip", "mtia"):
            not_implemented(f"torch._inductor's async_compile.triton(…, device_str={device_str!r})")
        return load_kernel(kernel_name, source_code, sys._getframe(1))

    def wait(self, scope):
        pass

    def _refused(what):
        def refuse(self, *args, **kwargs):
            not_implemented(f"torch._inductor's async_compile.{what} ({what} kernels can't be compiled to WGSL; Kernel Lab runs the Triton ones)")
        return refuse

    cpp = _refused("cpp")
    cpp_pybinding = _refused("cpp_pybinding")
    cuda = _refused("cuda")
    rocm = _refused("rocm")
    halide = _refused("halide")
    multi_kernel = _refused("multi_kernel")
    submit = _refused("submit")
