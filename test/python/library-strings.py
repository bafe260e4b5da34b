# Kernel libraries' helpers that take strings and None (attorch: apply_act_func(x, None, None, None,
# param, act_func, False), `if act_func == 'gelu':` inside the helper): each helper is compiled for
# the strings and None it is given, in this file and in the package beside it (layer_kit/), as
# Triton compiles a function per constexpr value. Then the host code around it: comparisons of a
# tensor that requires grad, torch.is_autocast_enabled / get_autocast_dtype.
import torch
import triton
import triton.language as tl

from layer_kit.acts import apply_act, maybe_relu
from layer_kit.gates import gate


@triton.jit
def act_kernel(X, Y, n, drop_p, seed, param, act: tl.constexpr, dropout: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, apply_act(x, drop_p, seed, offs, param, act, dropout), mask=mask)


@triton.jit
def pick(x, how: tl.constexpr):
    if how == 'twice':
        y = x * 2
    else:
        y = x * 3
    return y


@triton.jit
def gate_kernel(A, B, Y, n, param, act: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask)
    b = tl.load(B + offs, mask=mask)
    # A literal string, the kernel's string, a keyword None and a default None, each its own copy.
    y = gate(a, b, param, act) + pick(a, 'twice') + pick(a, how='thrice') + maybe_relu(b, act=act) + maybe_relu(a)
    tl.store(Y + offs, y, mask=mask)


torch.manual_seed(0)
n = 3001
x = torch.randn(n, device="cuda")
refs = {"sigmoid": torch.sigmoid(x), "leaky": torch.where(x > 0, x, 0.1 * x)}
for act, param in [("sigmoid", None), ("leaky", 0.1)]:
    y = torch.empty_like(x)
    act_kernel[(triton.cdiv(n, 512),)](x, y, n, 0.0, 0, param, act, False, BLOCK=512)
    torch.testing.assert_close(y, refs[act])
y = torch.empty_like(x)
act_kernel[(triton.cdiv(n, 512),)](x, y, n, 0.25, 7, None, "relu", True, BLOCK=512)
kept = y != 0
torch.testing.assert_close(y, torch.where(kept, torch.relu(x) / 0.75, 0.0))
print("apply_act for sigmoid, leaky (param 0.1), relu with dropout: match")

a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
y = torch.empty_like(a)
gate_kernel[(triton.cdiv(n, 1024),)](a, b, y, n, None, "relu", BLOCK=1024)
torch.testing.assert_close(y, a * torch.relu(b) + 2 * a + 3 * a + torch.relu(b) + a)
print("strings and None through a module between, literals, keywords, defaults: match")



@triton.jit
def scale_by_grad(G, X, Y, n, reduction: tl.constexpr, BLOCK: tl.constexpr):
    # attorch's p_loss backward: one gradient per element, or one for all (a name left None: no mask).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    grad_mask = None
    if reduction == 'none':
        G += offs
        grad_mask = mask
    g = tl.load(G, mask=grad_mask)
    tl.store(Y + offs, g * tl.load(X + offs, mask=mask), mask=mask)


for reduction, g in [("none", torch.randn(n, device="cuda")), ("sum", torch.full((1,), 2.5, device="cuda")), (None, torch.full((1,), -1.5, device="cuda"))]:
    y = torch.empty_like(a)
    # None passed by keyword to a constexpr is None, not a constexpr left without a value.
    scale_by_grad[(triton.cdiv(n, 1024),)](g, a, y, n, reduction=reduction, BLOCK=1024)
    torch.testing.assert_close(y, g * a)
print("a name bound to None, then to a mask where the constexpr if is taken: match")

w = torch.randn(300, device="cuda", requires_grad=True)
mask = (w > 0) & (w != 1.0)
assert not mask.requires_grad and mask.dtype == torch.bool
assert not torch.is_autocast_enabled() and torch.get_autocast_dtype("cuda") == torch.float16
with torch.autocast("cuda", dtype=torch.float32):  # torch turns it off (CUDA autocast is f16/bf16): a no-op here too
    pass
try:
    torch.autocast("cuda", dtype=torch.float16)
    raise AssertionError("autocast to float16 should be refused")
except NotImplementedError:
    pass
# empty_like of a transpose keeps its strides, as torch's preserve_format (attorch's batch norm views it back).
t = torch.randn(4, 3, 5, device="cuda").transpose(0, 2)
assert torch.empty_like(t).stride() == t.stride() == (1, 5, 15) and torch.zeros_like(t).transpose(0, 2).view(60).shape == (60,)
assert torch.empty_like(t[::2]).is_contiguous()
print("comparisons of a tensor that requires grad, autocast off, empty_like of a transpose")
