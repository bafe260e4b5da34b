# attorch's style of activation helpers: one @triton.jit function picks the activation by a string
# constexpr, in a chain that starts with two separate ifs, and takes None for what it doesn't use.
import triton
import triton.language as tl


@triton.jit
def leaky(x, slope):
    return tl.where(x > 0, x, slope * x)


@triton.jit
def apply_act(x, drop_p, seed, offset, param, act: tl.constexpr, dropout: tl.constexpr):
    if act == 'sigmoid':
        out = 1 / (1 + tl.exp(-x))
    if act == 'relu':
        out = tl.maximum(x, 0.)
    elif act == 'leaky':
        out = leaky(x, param)
    elif act == 'square':
        out = x * x
    if dropout:
        out = tl.where(tl.rand(seed, offset) < drop_p, 0., out / (1 - drop_p))
    return out


@triton.jit
def maybe_relu(x, act: tl.constexpr = None):
    # Before helpers were specialized for their strings, `act == 'relu'` here was False: no relu, no error.
    if act == 'relu':
        x = tl.maximum(x, 0.)
    if act is None:
        x = x + 0.
    return x
