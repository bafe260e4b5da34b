# torch.ops: the operators registered with torch.library (Library.define + impl, custom_op, triton_op), by
# namespace and name: `torch.ops.torchao.scaled_int8_mm(A, B, …)` and its `.default` overload call the op as
# registered (torchao's quantized_training/int8_mm.py). torch's own namespaces (aten, prims) aren't here.

from . import library as _library


class _OpPacket:
    def __init__(self, op):
        self._op = op
        self.default = op
        self.__name__ = op.__name__

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def __getattr__(self, name):
        raise NotImplementedError(f"torch.ops.{self._op._name.replace('::', '.')}.{name}: only the default overload is registered here")


class _OpNamespace:
    def __init__(self, ns):
        self._ns = ns

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        op = _library._ops.get(f"{self._ns}::{name}")
        if op is None:
            known = sorted(q.split("::", 1)[1] for q in _library._ops if q.startswith(self._ns + "::"))
            raise AttributeError(f"'_OpNamespace' '{self._ns}' object has no attribute '{name}' (Kernel Lab's torch.ops holds the ops registered "
                                 f"with torch.library; in {self._ns}: {', '.join(known) or 'none'})")
        return _OpPacket(op)


class _Ops:
    __name__ = "torch.ops"

    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        if ns == "inductor":
            # torch.compile's output code: `reinterpret_tensor = torch.ops.inductor._reinterpret_tensor`.
            from ._inductor import _ops as inductor
            return inductor
        return _OpNamespace(ns)


ops = _Ops()
