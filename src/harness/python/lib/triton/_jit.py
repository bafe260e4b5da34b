# @triton.jit, @triton.heuristics and `kernel[grid](…)` (@triton.autotune: _autotuner.py). The kernel's body never
# runs in Python: a launch binds the arguments as Python does (defaults, keywords), evaluates the
# grid (a tuple, or a function of the launch's meta-parameters), and sends the kernel's name, the
# tensors (a GPU tensor by its resident buffer's id: torch/_resident.py) and the scalar and constexpr
# values to the main thread, which compiles the kernel for those types and runs it checked (launch.ts).

import inspect
import linecache
import re
import sys
import textwrap
import types

import _kernel_lab_state as _state

from . import _bridge
from .language import constexpr as _constexpr
from .language import dtype as _dtype

# Triton's dtype names → Kernel Lab's (a dtype passed to a constexpr parameter: Liger's X_dtype).
_DTYPE_NAMES = {"fp32": "f32", "fp16": "f16", "bf16": "bf16", "fp64": "f64", "int32": "i32", "uint32": "u32", "int64": "i64",
                "uint64": "u64", "int16": "i16", "uint16": "u16", "int8": "i8", "uint8": "u8", "int1": "bool",
                "fp8e4nv": "f8e4m3", "fp8e5": "f8e5m2", "fp8e4b8": "f8e4b8", "fp8e5b16": "f8e5b16", "fp8e4b15": "f8e4b15"}

# The modules whose functions a kernel calls as tl's math (src/python/module.ts MATH_MODULES).
_MATH_MODULES = ("triton.language.math", "triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice", "triton.language.extra.hip.libdevice")

# Options of a launch that are not kernel arguments; num_warps and num_stages reach the compiler.
_COMPILER_OPTIONS = ("num_warps", "num_stages")
_IGNORED_OPTIONS = ("num_ctas", "maxnreg", "enable_fp_fusion", "debug", "sanitize_overflow", "launch_cooperative_grid", "launch_pdl", "enable_warp_specialization", "num_buffers_warp_spec", "num_consumer_groups", "reg_dec_producer", "reg_inc_consumer", "waves_per_eu", "matrix_instr_nonkdim", "kpack")

# extern_libs={'libdevice': path} (tutorial 07) names the LLVM bitcode that gives libdevice's functions
# on CUDA (ocml/ockl on ROCm). Kernel Lab's libdevice functions are its own WGSL, as Triton's portable
# libdevice names are each backend's own: the path isn't read. Other bitcode can't be linked into WGSL.
_LIBDEVICE_LIBS = ("libdevice", "ocml", "ockl")


def _check_extern_libs(libs):
    for name in libs or {}:
        if name not in _LIBDEVICE_LIBS:
            raise NotImplementedError(f"extern_libs names {name!r}: Kernel Lab compiles kernels to WGSL and links no LLVM bitcode; "
                                      "libdevice's functions (triton.language.extra.libdevice) are built in, so extern_libs naming "
                                      "libdevice (or ROCm's ocml, ockl) is accepted and its path not read")


def _is_constexpr(annotation):
    return annotation is _constexpr or annotation == "tl.constexpr" or annotation == "constexpr" or getattr(annotation, "__name__", None) == "constexpr"


def _grid3(grid, meta):
    g = grid(meta) if callable(grid) else grid
    g = tuple(g) if isinstance(g, (tuple, list)) else (g,)
    # Triton's launcher reads the first three entries; FlagGems' cumsum passes (M, num_ctas, 1, 1).
    if len(g) > 3 and all(int(x) == 1 for x in g[3:]):
        g = g[:3]
    if not 1 <= len(g) <= 3:
        raise ValueError(f"a grid has 1 to 3 dimensions (entries after the third may only be 1, which Triton ignores), got {g!r}")
    return tuple(int(x) for x in g) + (1,) * (3 - len(g))


def _is_dtype_annotation(annotation):
    """`n: tl.int64`, `s: "bf16"`: Triton makes the argument that type and never specializes it as 1 (jit.py
    KernelParam.annotation_type), so Kernel Lab passes it as a scalar (src/python/compile-python.ts)."""
    if isinstance(annotation, _dtype):
        return True
    return isinstance(annotation, str) and re.fullmatch(r"(tl\.|triton\.language\.)?(u?int\d+|float\d+|bfloat16|bf16|fp16|fp32|[iuf]\d+)", annotation) is not None


def _arg(name, value, constexpr, specialize=True):
    """A non-tensor argument (tensors: torch/_resident.py launch_args). An int equal to 1 (not a
    bool) is marked `equalTo1`, unless the parameter is in do_not_specialize: Triton specializes
    such an argument as the constant 1 (kernl's `if attention_mask_batch_size == 1:` is decided
    while compiling), and so does Kernel Lab."""
    if constexpr:
        if isinstance(value, _constexpr):
            value = value.value
        if isinstance(value, _dtype):
            return {"name": name, "kind": "constexpr", "value": {"dtype": _DTYPE_NAMES.get(value.name, value.name)}}
        if isinstance(value, (tuple, list)) and all(isinstance(v, (bool, int, float)) for v in value):
            # A tuple of numbers (test_core.py's test_reshape: `kernel[(1, )](z, x, (4, 8))` into `out_format: tl.constexpr`).
            return {"name": name, "kind": "constexpr", "value": list(value)}
        if value is not None and not isinstance(value, (bool, int, float, str)):
            value = str(value)
        if isinstance(value, int) and not isinstance(value, bool) and not -2**31 <= value < 2**31:
            # The compiler reads a whole number past the i32 range as a float (a float constexpr such as
            # torch.finfo(torch.float32).min crosses as a number): an int that large stops here, as a scalar does.
            raise ValueError(f"argument {name}={value} does not fit in int32: Kernel Lab's kernels take 32-bit integers")
        return {"name": name, "kind": "constexpr", "value": value}
    if isinstance(value, bool):
        return {"name": name, "kind": "bool", "value": value}
    if isinstance(value, int):
        if not -2**31 <= value < 2**31:
            raise ValueError(f"argument {name}={value} does not fit in int32: Kernel Lab's kernels take 32-bit integers")
        return {"name": name, "kind": "int", "value": value, **({"equalTo1": True} if value == 1 and specialize else {})}
    if isinstance(value, float):
        return {"name": name, "kind": "float", "value": value}
    if value is None:
        return {"name": name, "kind": "none"}
    if type(value).__name__ == "TensorWrapper":
        # triton.reinterpret's (runtime/jit.py): Kernel Lab binds a tensor's storage as its own torch dtype only.
        raise TypeError(f"argument {name} is a tensor reinterpreted as {value.dtype} (triton.reinterpret), which Kernel Lab "
                        f"doesn't launch: a kernel reads a tensor as its torch dtype ({value.base.dtype}); pass a tensor of "
                        f"the dtype meant (for fp8, torch.float8_e4m3fn or torch.float8_e5m2) instead")
    raise TypeError(f"argument {name} of type {type(value).__name__} can't be passed to a kernel (a tensor, an int, a float, a bool or None can)")


def _jit_lines(module):
    """The module's names bound to a @triton.jit function defined in it → the line its definition
    starts at: which of the definitions in a module-level `if` Python ran (protocol.ts ImportedModule)."""
    lines = {}
    for name, value in list(vars(module).items()):
        for _ in range(4):  # through @triton.autotune / @triton.heuristics to the JITFunction
            if isinstance(value, (JITFunction, types.ModuleType)):
                break
            try:
                inner = getattr(value, "fn", None)
            except Exception:  # a module-level object whose __getattr__ refuses: not a kernel
                inner = None
            if inner is None:
                break
            value = inner
        if isinstance(value, JITFunction) and value.fn.__module__ == module.__name__:
            lines[name] = value.def_line
    return lines


class KernelInterface:
    """triton.KernelInterface (triton.runtime.jit's), the base a launchable object subclasses: `kernel[grid](…)` is
    `run(*args, grid=grid, warmup=False, **kwargs)`. GPTQ-for-LLaMa's quant/custom_autotune.py (and AutoGPTQ's, kernl's)
    defines its own Autotuner on it and calls the wrapped kernel's `run(*args, num_warps=…, num_stages=…, **kwargs)`."""

    def run(self, *args, grid, warmup, **kwargs):
        raise NotImplementedError("run not implemented")

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)

    def warmup(self, *args, grid, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)


class JITFunction(KernelInterface):
    def __init__(self, fn, **options):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.constexprs = {n for n, p in self.signature.parameters.items() if _is_constexpr(p.annotation)}
        self.def_line = fn.__code__.co_firstlineno
        # The name a launch sends: `Softmax.forward` for one defined in a class body (kakaobrain/trident's
        # `@staticmethod @triton.jit def forward` in `class Softmax:`), as src/python/module.ts names it.
        qualname = getattr(fn, "__qualname__", fn.__name__)
        self._kernel_lab_name = fn.__name__ if "<locals>" in qualname else qualname
        self.options = options
        # @triton.jit(do_not_specialize=[…]): names or positions of parameters never specialized as 1.
        self._not_specialized = {self.arg_names[n] if isinstance(n, int) else n for n in options.get("do_not_specialize") or ()}
        self._not_specialized |= {n for n, p in self.signature.parameters.items() if _is_dtype_annotation(p.annotation)}
        self._module = None
        self._imports_sent = False
        self._src = None

    @property
    def src(self):
        """The kernel's source from its `def` on, as Triton's JITFunction.src (xformers' unroll_varargs rewrites it)."""
        if self._src is not None:
            return self._src
        text = textwrap.dedent(inspect.getsource(self.fn))
        return text[re.search(r"^def\s+\w+\s*\(", text, re.MULTILINE).start():]

    @src.setter
    def src(self, text):
        self._src = text
        self._module = None

    @property
    def _nested(self):
        """Whether the kernel was defined inside a function (its qualified name has `<locals>`)."""
        return "<locals>" in getattr(self.fn, "__qualname__", "")

    def _unsafe_update_src(self, new_src):
        """Triton's JITFunction._unsafe_update_src (its tests' patch_kernel): the source compiled from now on."""
        self.src = new_src

    def _generated_module(self, file):
        """
        A kernel whose source Python has no file for (exec'd from a string: xformers' unroll_varargs,
        its text kept in linecache or set as `src`): compiled from its defining module's text with that
        source appended, so the module's helpers and imports resolve as through fn.__globals__ and a
        later definition of the same name is the one compiled. Named by the code's file name (one
        per generated kernel); a line past the module's own is in the generated source.
        """
        module = sys.modules.get(self.fn.__module__)
        path = getattr(module, "__file__", None)
        if module is None or self.fn.__module__ == "__main__" or path == _state.file_name:
            base, name, user = "".join(linecache.getlines(_state.file_name)), None, True
        else:
            import _kernel_lab_imports
            with open(path) as f:
                base, name, user = f.read(), self.fn.__module__, path in _kernel_lab_imports.shown
        text = self._in_place(base) if self._nested else None
        if text is None:
            text = base.rstrip("\n") + "\n\n\n@triton.jit\n" + self.src.rstrip("\n") + "\n"
        return {"file": file, "text": text, "name": name, "user": user}

    def _in_place(self, base):
        """
        The module's text for a kernel defined inside a function (Triton's tests define theirs in each test,
        and patch their text): the top-level statement around it blanked but for the kernel, kept at its own
        lines and columns under an `if True:`, so a diagnostic names the line of the file. None where the
        source (as set) has another number of lines, or the text isn't Python's: then it is appended.
        """
        import ast
        try:
            lines, first = inspect.getsourcelines(self.fn)
            tree = ast.parse(base)
        except (OSError, TypeError, SyntaxError):
            return None
        at_def = next((i for i, line in enumerate(lines) if re.match(r"\s*def\s", line)), None)
        def starts(node):  # a statement's first line, its decorators' included
            return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])

        outer = next((n for n in tree.body if starts(n) < first <= n.end_lineno), None)
        if at_def is None or outer is None:
            return None
        indent = lines[at_def][:len(lines[at_def]) - len(lines[at_def].lstrip())]
        body = [indent + line if line.strip() else line for line in self.src.rstrip("\n").split("\n")]
        if len(body) != len(lines) - at_def:
            return None
        text = base.split("\n")
        for i in range(starts(outer) - 1, outer.end_lineno):
            text[i] = ""
        text[first - 2] = "if True:"
        kept = [line.rstrip("\n") for line in lines[:at_def]] + body
        text[first - 1:first - 1 + len(kept)] = kept
        return "\n".join(text)

    def _module_text(self):
        """A kernel defined outside the script (a module beside it, or Kernel Lab's torch's own kernels): its file, text and module name, to compile from."""
        file = self.fn.__code__.co_filename
        # A kernel defined inside a function (Triton's tests define each in its test) is not one of the
        # module's: compiled as a generated one, in place (`_in_place`).
        if file == _state.file_name and self._src is None and not self._nested:
            return None
        if self._module is None and (self._src is not None or self._nested or (file.startswith("<") and file.endswith(">"))):
            self._module = self._generated_module(file)
        if self._module is None:
            import _kernel_lab_imports
            user = file in _kernel_lab_imports.shown
            with open(file) as f:
                self._module = {"file": _kernel_lab_imports.shown.get(file, (None, file))[1], "text": f.read(), "name": self.fn.__module__, "user": user}
            # Which of the module's definitions Python bound, read from it as imported (a definition in a
            # module-level `if` is compiled only where it is the one bound: protocol.ts LaunchRequest.module).
            defining = sys.modules.get(self.fn.__module__)
            if defining is not None:
                self._module["jitLines"] = _jit_lines(defining)
        return self._module

    def _imports(self):
        """The modules beside the script this kernel's file refers to, and theirs in turn: {name, file, text}."""
        import _kernel_lab_imports
        found = {}
        namespaces = set()

        def visit(names):
            for value in list(names.values()):
                if isinstance(value, JITFunction):
                    value = sys.modules.get(value.fn.__module__)
                if not isinstance(value, types.ModuleType):
                    continue
                known = _kernel_lab_imports.shown.get(getattr(value, "__file__", None))
                aliases = vars(value).get("_kernel_lab_helpers")
                if known is None and isinstance(aliases, tuple) and value.__name__ not in found:
                    # A module of Kernel Lab's own lib whose @triton.jit helpers generated code calls
                    # (torch._inductor.runtime.triton_helpers), sent by its name and the older names
                    # generated files import it under.
                    with open(value.__file__) as f:
                        text = f.read()
                    for name in (value.__name__, *aliases):
                        found[name] = {"name": name, "file": value.__file__, "text": text, "jitLines": _jit_lines(value), "mathNames": _run_time_names(vars(value))}
                    continue
                if known is None and value.__name__ in _state.user_modules and value.__name__ not in namespaces:
                    # A namespace package beside the script (no file of its own): its modules, as its attributes.
                    namespaces.add(value.__name__)
                    visit(vars(value))
                if known is None or known[0] in found:
                    continue
                with open(value.__file__) as f:
                    found[known[0]] = {"name": known[0], "file": known[1], "text": f.read(), "jitLines": _jit_lines(value)}
                run_time = _run_time_names(vars(value))
                if run_time:
                    found[known[0]]["mathNames"] = run_time
                visit(vars(value))

        visit(self.fn.__globals__)
        return list(found.values())

    def _math_names(self):
        """Names of the kernel's module bound at run time to a libdevice / tl.math module or function, or a
        tl function, or a tl dtype, which its text alone can't tell (FlagGems' `tl_extra_shim`, its backend's math module,
        and `rsqrt = tl_extra_shim.rsqrt`; `uint_to_uniform_float` imported from a module that bound it to
        tl's): name → what it is (protocol.ts MathName)."""
        return _run_time_names(self.fn.__globals__)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"Cannot call @triton.jit'd outside of the scope of a kernel: launch it as {self._kernel_lab_name}[grid](…)")

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def bind(self, args, kwargs):
        kwargs = dict(kwargs)
        options = {k: int(kwargs.pop(k)) for k in _COMPILER_OPTIONS if k in kwargs and k not in self.arg_names}
        for k in _IGNORED_OPTIONS:
            if k not in self.arg_names:
                kwargs.pop(k, None)
        if "extern_libs" not in self.arg_names:
            _check_extern_libs(kwargs.pop("extern_libs", None))
        for name, p in self.signature.parameters.items():
            if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                # Triton 1.x's `def kernel(x_ptr, n, **meta)` read `meta['BLOCK_SIZE']` (lucidrains/triton-transformer);
                # Triton 2 and later have no such parameters: each meta-parameter is a `NAME: tl.constexpr`.
                star = "**" if p.kind == p.VAR_KEYWORD else "*"
                raise TypeError(f"{self.__name__}'s parameter {star}{name} isn't a kernel parameter (Triton 1.x's meta-parameters); "
                                f"declare each one, `BLOCK_SIZE: tl.constexpr`, and read it by name instead of {name}['BLOCK_SIZE']")
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return dict(bound.arguments), options

    def launch_request(self, args, kwargs, grid, warmup=False):
        """The launch as the main thread takes it, with its tensors' bindings (torch/_resident.py launch_args)."""
        import torch
        from torch import _resident
        values, options = self.bind(args, kwargs)
        from .runtime.jit import _launched_as
        values = {n: _launched_as(v) for n, v in values.items()}
        meta = dict(values, **options)
        from .tools.tensor_descriptor import TensorDescriptor
        # A TensorDescriptor goes as its base tensor plus its shape, strides and block shape, as Triton expands it.
        descriptors = {n: v for n, v in values.items() if isinstance(v, TensorDescriptor) and n not in self.constexprs}
        tensors = {n: v for n, v in values.items() if isinstance(v, torch.Tensor) and n not in self.constexprs}
        tensors.update({n: d.base for n, d in descriptors.items()})
        bound = _resident.launch_args(tensors, warmup)
        for n, d in descriptors.items():
            bound[n]["descriptor"] = d._kernel_lab_fields(n)
        request = {
            "kind": "launch",
            "kernel": self._kernel_lab_name,
            "defLine": self.def_line,
            "callLine": _state.caller_line() or 0,
            "grid": list(_grid3(grid, meta)),
            "args": [bound[n] if n in bound else _arg(n, v, n in self.constexprs, n not in self._not_specialized) for n, v in values.items()],
            "options": options,
            "record": _state.recording,
            "warmup": warmup,
        }
        module = self._module_text()
        if module is not None:
            request["module"] = module
        if not self._imports_sent:
            imports = self._imports()
            if imports:
                request["imports"] = imports
            math_names = self._math_names()
            if math_names:
                request["mathNames"] = math_names
            self._imports_sent = True
        return request, bound, tensors

    def run(self, *args, grid, warmup=False, kernel_lab_codegen=None, kernel_lab_probe=False, **kwargs):
        from torch import _resident
        request, bound, tensors = self.launch_request(args, kwargs, grid, warmup)
        if kernel_lab_codegen:
            request["codegen"] = kernel_lab_codegen
        if kernel_lab_probe:
            request["probe"] = True
        try:
            result = _bridge.call(request)
        except BaseException:
            _resident.launched(bound, tensors, None, False)
            raise
        _resident.launched(bound, tensors, result, True)
        for line in (result or {}).get("prints", []):
            print(line)
        # A launch gives back the compiled kernel, as Triton's does (its counts; the WGSL comes with warmup's).
        return CompiledKernel(self, request["options"], result or {})

    def warmup(self, *args, grid, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)


class _Metadata:
    def __init__(self, info, options):
        self.shared = info.get("shared", 0)
        self.num_warps = options.get("num_warps", 4)
        self.num_stages = options.get("num_stages", 3)
        self.name = info.get("name", "")


class _Asm(dict):
    """A compiled kernel's code by stage: Kernel Lab's one stage is WGSL."""

    def __missing__(self, key):
        if key == "wgsl":
            raise KeyError("the WGSL comes with kernel.warmup(…): kernel.warmup(args…, grid=grid).asm['wgsl'] (a launch gives back the counts only)")
        raise KeyError(f"{key!r}: Kernel Lab compiles a kernel to WGSL, not through Triton's CUDA/HIP stages (ttir, ttgir, llir, ptx, cubin, amdgcn); "
                       "kernel.warmup(…).asm['wgsl'] has the WGSL")


class CompiledKernel:
    """What `kernel.warmup(…)` gives: the kernel compiled, its stand-in register and memory counts (README), launchable."""

    def __init__(self, jit, options, info):
        self.jit = jit
        self.options = options
        self.n_regs = info.get("n_regs", 32)
        self.n_spills = 0
        self.shared = info.get("shared", 0)
        self.name = info.get("name", "")
        self.metadata = _Metadata(info, options)
        self.asm = _Asm({"wgsl": info["wgsl"]} if "wgsl" in info else {})

    def _init_handles(self):
        pass

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.jit.run(*args, grid=grid, **self.options, **kwargs)


def jit(fn=None, **options):
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)


class Heuristics:
    def __init__(self, fn, values):
        self.fn = fn
        self.values = values
        self.__name__ = getattr(fn, "__name__", "kernel")
        self._kernel_lab_name = getattr(fn, "_kernel_lab_name", self.__name__)
        # Triton's Heuristics(fn, fn.arg_names, values) keeps the kernel's parameter names, as Autotuner does:
        # apple/ml-cross-entropy's autotune wrapper reads `fn.arg_names` of the Heuristics it decorates.
        self.arg_names = getattr(fn, "arg_names", None)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def _with_values(self, args, kwargs):
        jit_fn = self.fn
        while not isinstance(jit_fn, JITFunction):
            jit_fn = jit_fn.fn
        meta = dict(zip(jit_fn.arg_names, args), **kwargs)
        for name, rule in self.values.items():
            kwargs[name] = rule(meta)
            meta[name] = kwargs[name]
        return kwargs

    def run(self, *args, grid, **kwargs):
        return self.fn.run(*args, grid=grid, **self._with_values(args, kwargs))

    def launch_request(self, args, kwargs, grid, warmup=False):
        return self.fn.launch_request(args, self._with_values(args, dict(kwargs)), grid, warmup)


def heuristics(values):
    return lambda fn: Heuristics(fn, values)


def _run_time_names(names):
    """Names of a module bound at run time to a libdevice / tl.math module or function, or a tl function, or a tl
    dtype, or a tl.constexpr Python computed, which its text alone can't tell: name → what it is (protocol.ts MathName)."""
    found = {}
    for name, value in list(names.items()):
        if isinstance(value, types.ModuleType) and value.__name__ in _MATH_MODULES:
            found[name] = {"kind": "module"}
        elif isinstance(getattr(value, "_kernel_lab_math", None), str):
            found[name] = {"kind": "function", "name": value._kernel_lab_math}
        elif isinstance(getattr(value, "_kernel_lab_tl", None), str):
            found[name] = {"kind": "tl", "name": value._kernel_lab_tl}
        elif isinstance(value, _dtype) and not name.startswith("__"):
            # A dtype global (sglang's REDUCE_TRITON_TYPE, bound in a module-level `if`): Triton lets a kernel read it.
            found[name] = {"kind": "dtype", "name": _DTYPE_NAMES.get(value.name, value.name)}
        elif isinstance(value, _constexpr) and not name.startswith("__") and (value.value is None or isinstance(value.value, (bool, int, float, str))):
            # tritonbench's profile.py: `IS_CUDA = tl.constexpr(is_cuda())`, read by its @triton.jit helpers.
            found[name] = {"kind": "constexpr", "value": value.value}
    return found
