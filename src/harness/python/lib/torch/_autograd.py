# torch.autograd as far as tutorial 05 and kernel tests use it: a torch.autograd.Function's
# forward and backward (ctx.save_for_backward, ctx.saved_tensors), the reference ops that carry a
# backward of their own (torch.nn.functional.layer_norm), the ops that only reshape, reorder,
# pick, broadcast, copy or cast (_view_grad.py), Tensor.backward into the leaves' .grad. Any other
# op on a tensor that requires grad, with grad enabled, raises NotImplementedError: a gradient
# Kernel Lab can't compute is never silently missing.

import contextlib
import types

from ._tensor import Tensor, not_implemented

_enabled = [True]


def is_grad_enabled():
    return _enabled[-1]


@contextlib.contextmanager
def _grad_mode(on):
    _enabled.append(on)
    try:
        yield
    finally:
        _enabled.pop()


class _BareDecorator(contextlib.ContextDecorator):
    """`@torch.no_grad` written without parentheses decorates the function, as torch's does (Liger's grpo_loss)."""

    def __new__(cls, orig_func=None):
        if callable(orig_func):
            return cls()(orig_func)
        return super().__new__(cls)

    def __init__(self, orig_func=None):
        pass


class no_grad(_BareDecorator):
    def __enter__(self):
        _enabled.append(False)

    def __exit__(self, *exc):
        _enabled.pop()


class enable_grad(_BareDecorator):
    def __enter__(self):
        _enabled.append(True)

    def __exit__(self, *exc):
        _enabled.pop()


inference_mode = no_grad


class set_grad_enabled(contextlib.ContextDecorator):
    def __init__(self, mode):
        self.mode = mode

    def __enter__(self):
        _enabled.append(self.mode)

    def __exit__(self, *exc):
        _enabled.pop()


def needs_grad(*tensors):
    return is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in tensors)


def refuse_grad(name, *tensors):
    """An op with no backward here, on a tensor that requires grad."""
    if needs_grad(*tensors):
        not_implemented(f"autograd through {name} (Kernel Lab differentiates torch.autograd.Function, torch.nn.functional.layer_norm, pad, gelu and silu, +, - and *, and views only)")


class Node:
    """A recorded op: its inputs and how to turn its outputs' gradients into theirs. A node with
    several outputs (an autograd.Function returning a tuple) gets one gradient per output, the
    ones that no backward reached as zeros, as torch materializes them (ctx.set_materialize_grads)."""

    def __init__(self, label, inputs, backward, outputs=None, materialize=None):
        self.label = label
        self.inputs = inputs
        self._backward = backward
        self.outputs = outputs   # None: one output, its gradient passed alone
        self.materialize = materialize

    def name(self):
        return self.label

    def run(self, grads):
        if self.outputs is None:
            return self._backward(grads[0])
        if self.materialize is None or self.materialize():
            import torch
            grads = [torch.zeros_like(o) if g is None and o is not None else g for o, g in zip(self.outputs, grads)]
        return self._backward(*grads)


def attach(output, label, inputs, backward):
    if needs_grad(*inputs):
        output.requires_grad = True
        output.grad_fn = Node(label, inputs, backward)
        output._output_nr = 0
    return output


class FunctionCtx:
    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        # Outputs for logging only (flash-attention's z_losses): they come out of apply with
        # requires_grad False, as in torch, so arithmetic on them isn't autograd; backward gets zeros for them.
        self.non_differentiable = getattr(self, "non_differentiable", ()) + tensors

    def mark_dirty(self, *tensors):
        # An input the forward changed in place (xformers' scaled_index_add): an output that is an input
        # is already given back over the same storage (apply below), so there is nothing to record.
        pass

    materialize_grads = True

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class Function:
    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError

    @classmethod
    def apply(cls, *args):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        with _grad_mode(False):
            out = cls.forward(ctx, *args)
        # As in torch, an output marked non-differentiable, and one of bools or integers (flash-attention's
        # dropout masks), comes out with requires_grad False.
        marked = getattr(ctx, "non_differentiable", ())
        differentiable = [not any(o is m for m in marked) and not (isinstance(o, Tensor) and not o.is_floating_point())
                          for o in (out if isinstance(out, tuple) else (out,))]
        if needs_grad(*args):
            # An input returned as an output (Liger's in-place rope returns q itself) comes out as a
            # new tensor over the same storage, as torch's view_as does, so the input stays a leaf.
            alias = lambda o: o.detach() if isinstance(o, Tensor) and any(o is a for a in args) else o  # noqa: E731
            out = tuple(alias(o) for o in out) if isinstance(out, tuple) else alias(out)
        outputs = out if isinstance(out, tuple) else (out,)
        inputs = [a for a in args if isinstance(a, Tensor)]

        def backward(*grad):
            with _grad_mode(False):
                grads = cls.backward(ctx, *grad)
            grads = grads if isinstance(grads, tuple) else (grads,)
            return [g for a, g in zip(args, grads) if isinstance(a, Tensor)]

        if len(outputs) == 1:
            if differentiable[0]:
                attach(outputs[0], f"{cls.__name__}Backward", inputs, backward)
        elif needs_grad(*inputs):
            # One node for all outputs: backward(ctx, *grads) takes a gradient for each (None for
            # an output that isn't a tensor: Liger's fused linear cross entropy returns None z_loss).
            slots = [o if isinstance(o, Tensor) else None for o in outputs]
            node = Node(f"{cls.__name__}Backward", inputs, backward, slots, lambda: ctx.materialize_grads)
            for i, o in enumerate(slots):
                if o is not None and differentiable[i]:
                    o.requires_grad = True
                    o.grad_fn = node
                    o._output_nr = i
        return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None, grad_variables=None):
    """torch.autograd.backward: one tensor or several, each with its gradient (None: ones for a scalar)."""
    if create_graph:
        not_implemented("backward(create_graph=True)")
    many = isinstance(tensors, (list, tuple))
    roots = list(tensors) if many else [tensors]
    gradients = grad_tensors if grad_tensors is not None else grad_variables
    if gradients is None:
        gradients = [None] * len(roots)
    elif not many or isinstance(gradients, Tensor):
        gradients = list(gradients) if isinstance(gradients, (list, tuple)) else [gradients]
    else:
        gradients = list(gradients)
    if len(gradients) != len(roots):
        raise RuntimeError(f"grad_tensors has {len(gradients)} entries for {len(roots)} tensors")
    # pending: a node's gradient slots, one per output of that node.
    pending, nodes = {}, []
    for i, (tensor, gradient) in enumerate(zip(roots, gradients)):
        if tensor.grad_fn is None:
            if tensor.requires_grad:
                _accumulate(tensor, _default_gradient(tensor) if gradient is None else gradient)
                continue
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        _add_pending(pending, tensor, _default_gradient(tensor) if gradient is None else gradient)
        nodes.append(tensor.grad_fn)
    # Each node once, after every node that feeds it a gradient (reverse topological order).
    order, seen = [], set()

    def visit(node):
        if id(node) in seen:
            return
        seen.add(id(node))
        for t in node.inputs:
            if t.grad_fn is not None:
                visit(t.grad_fn)
        order.append(node)

    for node in nodes:
        visit(node)
    with _grad_mode(False):
        for node in reversed(order):
            grads = pending.pop(id(node), None)
            if grads is None:
                continue
            for t, g in zip(node.inputs, node.run(grads)):
                if g is None or not t.requires_grad:
                    continue
                if t.grad_fn is not None:
                    _add_pending(pending, t, g)
                else:
                    _accumulate(t, g)


def _default_gradient(tensor):
    if tensor.numel() != 1:
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    import torch
    return torch.ones_like(tensor)


def _add_pending(pending, tensor, grad):
    node = tensor.grad_fn
    slots = pending.setdefault(id(node), [None] * (1 if node.outputs is None else len(node.outputs)))
    nr = getattr(tensor, "_output_nr", 0)
    slots[nr] = grad if slots[nr] is None else slots[nr] + grad


def _accumulate(leaf, grad):
    grad = grad.detach()
    leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad


Tensor.backward = lambda self, gradient=None, retain_graph=None, create_graph=False, inputs=None: backward(self, gradient, retain_graph, create_graph)


# torch.autograd.function, where annotations name the ctx class (xformers' `ctx: torch.autograd.function.FunctionCtx`).
# once_differentiable (xformers' indexing.py) gives the backward back: no gradient of a gradient is taken here.
# It is a module too, registered as torch's own is, so `from torch.autograd.function import FunctionCtx`
# (kernl's implementations) imports: torch.autograd is this module under another name, not a package.
function = types.ModuleType("torch.autograd.function")
function.Function, function.FunctionCtx, function.once_differentiable = Function, FunctionCtx, lambda backward: backward
import sys as _sys  # noqa: E402

_sys.modules.setdefault("torch.autograd", _sys.modules[__name__])
_sys.modules.setdefault("torch.autograd.function", function)


# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from ._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch.autograd")
