# torch.library: registering custom operators and launching Triton kernels from them (xformers' triton_splitk.py defines
# `xformers::fmha_merge_attentions_varargs` with `@torch.library.custom_op` at import). There is no
# dispatcher here: a custom op is its Python function, called as it is; a fake (meta) kernel is kept
# and never needed (nothing is traced). Autograd through a registered backward isn't wired: calling
# the op on a tensor that requires grad is refused by name.


_fakes = {}
_ops = {}


class CustomOpDef:
    def __init__(self, name, fn):
        self._name = name
        self._fn = fn
        self._backward = None
        self.__name__ = getattr(fn, "__name__", name)
        self.__doc__ = getattr(fn, "__doc__", None)
        _ops[name] = self

    def __call__(self, *args, **kwargs):
        if self._backward is not None and _needs_grad(args, kwargs):
            return self._with_grad(args, kwargs)
        return self._fn(*args, **kwargs)

    def _with_grad(self, args, kwargs):
        # As torch runs a custom op with a registered backward: the op with grad disabled, then
        # setup_context(ctx, inputs, output), and backward(ctx, *grads) giving one gradient per input
        # (applied-ai's flash_backward.py: `flash` and `flash.register_autograd(backward, setup_context=…)`),
        # here through an autograd.Function made for the call.
        import inspect
        from ._autograd import Function
        bound = inspect.signature(self._fn).bind(*args, **kwargs)
        bound.apply_defaults()
        inputs = tuple(bound.arguments.values())
        op, (backward, setup_context) = self._fn, self._backward

        class CustomOp(Function):
            @staticmethod
            def forward(ctx, *given):
                out = op(*given)
                if setup_context is not None:
                    setup_context(ctx, given, out)
                return out

            @staticmethod
            def backward(ctx, *grads):
                return backward(ctx, *grads)

        CustomOp.__name__ = self._name.replace("::", "_")
        return CustomOp.apply(*inputs)

    def register_fake(self, fn):
        _fakes[self._name] = fn
        return fn

    def register_kernel(self, device_types, fn=None):
        # One implementation for every device here: the op's own function.
        return fn if fn is not None else (lambda f: f)

    def register_autograd(self, backward, *, setup_context=None):
        self._backward = (backward, setup_context)

    def register_torch_dispatch(self, torch_dispatch_class, fn=None, /):
        # A rule for when the op runs under a tensor subclass or mode (flash-attention's triton_op, for
        # torch.compile's FunctionalTensorMode); none is ever active here: kept, never called.
        return fn if fn is not None else (lambda f: f)


def _needs_grad(args, kwargs):
    from ._tensor import Tensor
    from ._autograd import is_grad_enabled
    values = list(args) + list(kwargs.values())
    flat = [v for a in values for v in (a if isinstance(a, (list, tuple)) else [a])]
    return is_grad_enabled() and any(isinstance(v, Tensor) and v.requires_grad for v in flat)


def custom_op(name, fn=None, /, *, mutates_args=(), device_types=None, schema=None, tags=None):
    # `tags` (torch.Tag.inplace, torchtitan's fused_mla.py) are for torch's dispatcher and compiler: none here.
    if fn is None:
        return lambda f: CustomOpDef(name, f)
    return CustomOpDef(name, fn)


def register_autograd(op, backward, /, *, setup_context=None, lib=None):
    # xformers' tiled_matmul.py registers its backward by the op's name.
    (_ops[op] if isinstance(op, str) else op).register_autograd(backward, setup_context=setup_context)


def register_fake(op, fn=None, /, *, lib=None, _stacklevel=1):
    name = op._name if isinstance(op, CustomOpDef) else op

    def register(f):
        _fakes[name] = f
        return f

    return register(fn) if fn is not None else register


class Library:
    """torch.library.Library(ns, kind): an operator namespace that `define`s schemas and `impl`ements them per
    dispatch key (torchao's quantized_training/int8_mm.py: `lib = Library("torchao", "FRAGMENT")`,
    `lib.define("scaled_int8_mm(Tensor A, …) -> Tensor")`, `@torch.library.impl(lib, "scaled_int8_mm", "CUDA")`,
    called as `torch.ops.torchao.scaled_int8_mm(…)`). No dispatcher: a call runs the CUDA implementation for
    tensors on the device, else the CPU / composite one (see torch.ops)."""

    def __init__(self, ns, kind, dispatch_key=""):
        if kind not in ("DEF", "IMPL", "FRAGMENT"):
            raise ValueError(f"Unsupported kind '{kind}'")
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key

    def define(self, schema, alias_analysis="", *, tags=()):
        name = schema.split("(", 1)[0].strip()
        _schema_op(f"{self.ns}::{name}", schema)
        return name

    def impl(self, op_name, fn=None, dispatch_key="", *, with_keyset=False, allow_override=False):
        name = getattr(op_name, "_name", op_name)
        qualname = name if "::" in name else f"{self.ns}::{name}"
        key = dispatch_key or self.dispatch_key or "CompositeImplicitAutograd"
        if fn is None:
            return lambda f: self.impl(op_name, f, dispatch_key)
        _schema_op(qualname).kernels[key] = fn
        return fn

    def _register_fake(self, op_name, fn, _stacklevel=1):
        # A fake (meta) kernel is for tracing; nothing is traced here: kept, never called (aiter's torch_compile_guard).
        name = getattr(op_name, "_name", op_name)
        _fakes[name if "::" in name else f"{self.ns}::{name}"] = fn
        return fn

    def _destroy(self):
        pass


def infer_schema(prototype_function, /, *, mutates_args, op_name=None):
    """torch.library.infer_schema: the schema string torch reads off a function's annotations, as
    torch/_library/infer_schema.py writes it (aiter's torch_compile_guard splits it at "->" and defines
    the op with it). A parameter or return annotation torch can't put in a schema is its ValueError."""
    import inspect
    import typing
    from ._tensor import Tensor
    from ._dtypes import dtype as _dtype_class
    sig = inspect.signature(prototype_function)
    name = getattr(prototype_function, "__name__", "function")

    def scalar_type(t):
        basics = {Tensor: "Tensor", int: "SymInt", float: "float", bool: "bool", str: "str", _dtype_class: "ScalarType"}
        if t in basics:
            return basics[t]
        origin, targs = typing.get_origin(t), typing.get_args(t)
        if origin in (list, tuple, typing.Sequence) and len(targs) >= 1 and targs[0] in basics and (origin is not tuple or targs[-1] is Ellipsis):
            return basics[targs[0]] + "[]"
        return None

    def type_text(t):
        origin, targs = typing.get_origin(t), typing.get_args(t)
        if origin is typing.Union or type(t).__name__ == "UnionType":
            rest = [a for a in targs if a is not type(None)]
            if len(rest) == 1 and len(targs) == 2:
                inner = scalar_type(rest[0])
                return None if inner is None else inner + "?"
            return None
        return scalar_type(t)

    def default_text(default):
        if default is None:
            return "None"
        if isinstance(default, bool) or isinstance(default, (int, float)):
            return str(default)
        if isinstance(default, str):
            return f'"{default}"'
        if isinstance(default, _dtype_class):
            return str(default).removeprefix("torch.")
        raise ValueError(f"infer_schema({name}): unsupported default value {default!r}")

    params = []
    for idx, (pname, param) in enumerate(sig.parameters.items()):
        if param.annotation is inspect.Parameter.empty:
            raise ValueError(f"infer_schema({name}): parameter '{pname}' must have a type annotation")
        text = type_text(param.annotation)
        if text is None:
            raise ValueError(f"infer_schema({name}): parameter '{pname}' has unsupported type {param.annotation}")
        mutated = mutates_args == "unknown" or (not isinstance(mutates_args, str) and pname in mutates_args)
        if mutated and text.startswith("Tensor"):
            text = f"Tensor(a{idx}!){text[len('Tensor'):]}"
        params.append(f"{text} {pname}" if param.default is inspect.Parameter.empty else f"{text} {pname}={default_text(param.default)}")
    ret = sig.return_annotation
    if ret is None or ret is type(None):
        out = "()"
    elif typing.get_origin(ret) is tuple:
        parts = [scalar_type(a) for a in typing.get_args(ret)]
        if any(p is None for p in parts):
            raise ValueError(f"infer_schema({name}): unsupported return type {ret}")
        out = "(" + ", ".join(parts) + ")"
    else:
        out = scalar_type(ret) if ret is not inspect.Parameter.empty else None
        if out is None:
            raise ValueError(f"infer_schema({name}): unsupported return type {ret}")
    return f"{op_name or ''}({', '.join(params)}) -> {out}"


class _SchemaOp:
    """An operator defined by schema; called, it runs the kernel registered for the arguments' device."""

    def __init__(self, qualname, schema):
        self._name = qualname
        self._schema = schema
        self.kernels = {}
        self.__name__ = qualname.split("::")[-1]
        _ops[qualname] = self

    def __call__(self, *args, **kwargs):
        from ._tensor import Tensor
        values = list(args) + list(kwargs.values())
        flat = [v for a in values for v in (a if isinstance(a, (list, tuple)) else [a])]
        on_gpu = any(isinstance(v, Tensor) and v.device.type == "cuda" for v in flat)
        order = (["CUDA"] if on_gpu else ["CPU"]) + ["CompositeExplicitAutograd", "CompositeImplicitAutograd", "Autograd"]
        for key in order:
            if key in self.kernels:
                return self.kernels[key](*args, **kwargs)
        raise NotImplementedError(
            f"torch.ops.{self._name.replace('::', '.')}: no implementation for {'CUDA' if on_gpu else 'CPU'} "
            f"(registered: {', '.join(sorted(self.kernels)) or 'none'})")


def _schema_op(qualname, schema=None):
    op = _ops.get(qualname)
    if op is None:
        op = _SchemaOp(qualname, schema)
    return op


def define(qualname, schema, *, lib=None, tags=()):
    ns, name = qualname.split("::", 1)
    _schema_op(qualname, f"{name}{schema}")


def impl(qualname_or_lib, name_or_types=None, func_or_key=None, *, lib=None):
    """`@torch.library.impl(lib, "op", "CUDA")` (Library, name, dispatch key) and
    `@torch.library.impl("ns::op", "cuda")` (qualified name, device types)."""
    if isinstance(qualname_or_lib, Library):
        library = qualname_or_lib
        key = func_or_key if isinstance(func_or_key, str) else ""
        if callable(func_or_key):
            return library.impl(name_or_types, func_or_key)
        return lambda f: library.impl(name_or_types, f, key)
    qualname = getattr(qualname_or_lib, "_name", qualname_or_lib)
    types = name_or_types if isinstance(name_or_types, (list, tuple)) else [name_or_types or "default"]
    keys = [{"cuda": "CUDA", "cpu": "CPU", "default": "CompositeExplicitAutograd"}.get(str(t), str(t)) for t in types]

    def register(f):
        op = _ops.get(qualname)
        if op is None or not isinstance(op, _SchemaOp):
            op = op if op is not None else _schema_op(qualname)
        if isinstance(op, _SchemaOp):
            for k in keys:
                op.kernels[k] = f
        return f

    return register(func_or_key) if callable(func_or_key) else register


# triton_op / wrap_triton (torch ≥ 2.6): launching Triton kernels from a custom op (torch/_library/triton.py).
from ._library.triton import triton_op, wrap_triton  # noqa: E402,F401

# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.library")
