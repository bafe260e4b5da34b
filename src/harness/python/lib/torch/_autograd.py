# torch.autograd as far as tutorial 05 and kernel tests use it: a torch.autograd.Function's
# forward and backward (ctx.save_for_backward, ctx.saved_tensors), the reference ops that carry a
# backward of their own (torch.nn.functional.layer_norm), Tensor.backward into the leaves' .grad.
# Any other op on a tensor that requires grad, with grad enabled, raises NotImplementedError:
# a gradient Kernel Lab can't compute is never silently missing.

import contextlib

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


class no_grad(contextlib.ContextDecorator):
    def __enter__(self):
        _enabled.append(False)

    def __exit__(self, *exc):
        _enabled.pop()


class enable_grad(contextlib.ContextDecorator):
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
        not_implemented(f"autograd through {name} (Kernel Lab differentiates torch.autograd.Function and torch.nn.functional.layer_norm only)")


class Node:
    """A recorded op: its inputs and how to turn the output's gradient into theirs."""

    def __init__(self, label, inputs, backward):
        self.label = label
        self.inputs = inputs
        self._backward = backward

    def name(self):
        return self.label


def attach(output, label, inputs, backward):
    if needs_grad(*inputs):
        output.requires_grad = True
        output.grad_fn = Node(label, inputs, backward)
    return output


class FunctionCtx:
    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        pass

    def set_materialize_grads(self, value):
        pass


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
        outputs = out if isinstance(out, tuple) else (out,)
        inputs = [a for a in args if isinstance(a, Tensor)]

        def backward(grad):
            with _grad_mode(False):
                grads = cls.backward(ctx, grad)
            grads = grads if isinstance(grads, tuple) else (grads,)
            return [g for a, g in zip(args, grads) if isinstance(a, Tensor)]

        if len(outputs) == 1:
            attach(outputs[0], f"{cls.__name__}Backward", inputs, backward)
        elif needs_grad(*inputs):
            not_implemented(f"backward of {cls.__name__} with several outputs")
        return out


def backward(tensor, gradient=None, retain_graph=None, create_graph=False):
    if create_graph:
        not_implemented("backward(create_graph=True)")
    if tensor.grad_fn is None:
        if tensor.requires_grad:
            _accumulate(tensor, gradient)
            return
        raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    if gradient is None:
        if tensor.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        import torch
        gradient = torch.ones_like(tensor)
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

    visit(tensor.grad_fn)
    pending = {id(tensor.grad_fn): gradient}
    with _grad_mode(False):
        for node in reversed(order):
            grad = pending.pop(id(node), None)
            if grad is None:
                continue
            for t, g in zip(node.inputs, node._backward(grad)):
                if g is None or not t.requires_grad:
                    continue
                if t.grad_fn is not None:
                    pending[id(t.grad_fn)] = g if id(t.grad_fn) not in pending else pending[id(t.grad_fn)] + g
                else:
                    _accumulate(t, g)


def _accumulate(leaf, grad):
    grad = grad.detach()
    leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad


Tensor.backward = lambda self, gradient=None, retain_graph=None, create_graph=False, inputs=None: backward(self, gradient, retain_graph, create_graph)
