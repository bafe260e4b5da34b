"""shawntan/scattermoe's Triton kernels as published (test/python/scattermoe_kit/, scattermoe at 47b5e150, unchanged),
at the library's own configs, through their own entry points, against references written from the ops' definitions in
Kernel Lab's torch (loops over the routing, on the CPU): kernels.ops.scatter2scatter (scattered and grouped in and out,
with a bias), group (with gate coefficients, fan-out), group_bwd_W (with the bias gradient), parallel_linear forward
and backward (ParallelLinear, an autograd Function: gates, biases), mlp.MLP / mlp.GLUMLP forward and backward, routed
by flatten_sort_count (torch.compile, a torch.library custom op), and kernels.single.single2scatter. 13 tokens, top-2
of 4 experts, 70 inputs and 45 outputs: off every block of the library's configs (BLOCK_M 128, BLOCK_N 128 / 256,
BLOCK_K 32 / 128); single2scatter reads whole blocks unmasked, so its sizes are multiples of 128. With --cpu in the
test: lavapipe takes 3 to 30 s to compile each kernel even at smaller blocks (scattermoe-idioms.py runs a few)."""

import math

import torch
import triton
from torch import nn

import scattermoe_kit
from scattermoe_kit.kernels import ops
from scattermoe_kit.kernels.single import single2scatter
from scattermoe_kit.mlp import MLP, GLUMLP

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
T, E, k, K, N = 13, 4, 2, 70, 45


def report(name, got, ref, atol=1e-4):
    got, ref = got.detach().cpu().float(), ref.detach().cpu().float()
    same = tuple(got.shape) == tuple(ref.shape) and torch.allclose(got, ref, atol=atol, rtol=1e-4)
    print(name + ":", "match" if same else (f"differ by {(got - ref).abs().max().item()}" if got.shape == ref.shape
                                            else f"shape {list(got.shape)}, not {list(ref.shape)}"))


x = torch.randn((T, K), device=DEVICE)
W = torch.randn((E, K, N), device=DEVICE) * 0.1
b = torch.randn((E, N), device=DEVICE)
expert_idxs = torch.randint(0, E, (T, k), device=DEVICE)
s_e, s_s, offsets = scattermoe_kit.flatten_sort_count(expert_idxs, num_experts=E)

# The routing by definition: each (token, choice) pair f = t * k + j, in the order of its expert (stable).
routes = expert_idxs.cpu().tolist()
pairs = sorted(range(T * k), key=lambda f: routes[f // k][f % k])
expert_of = [routes[f // k][f % k] for f in range(T * k)]
counts = [sum(1 for f in range(T * k) if expert_of[f] == e) for e in range(E)]
ok = (s_s.cpu().tolist() == pairs and s_e.cpu().tolist() == [expert_of[f] for f in pairs]
      and offsets.cpu().tolist() == [sum(counts[:e + 1]) for e in range(E)])
print("flatten_sort_count:", "match" if ok else f"differ {s_s.cpu().tolist()} {s_e.cpu().tolist()} {offsets.cpu().tolist()}")

xc, Wc, bc = x.cpu(), W.cpu(), b.cpu()
scattered = torch.stack([xc[f // k] @ Wc[expert_of[f]] for f in range(T * k)])
biased = torch.stack([scattered[f] + bc[expert_of[f]] for f in range(T * k)])
report("scatter2scatter", ops.scatter2scatter(x, W, s_e, s_s, k), scattered)
report("scatter2scatter (bias)", ops.scatter2scatter(x, W, s_e, s_s, k, b=b), biased)
grouped = torch.stack([scattered[f] for f in pairs])
report("scatter2scatter (y_grouped)", ops.scatter2scatter(x, W, s_e, s_s, k, y_grouped=True), grouped)
xg = torch.randn((T * k, K), device=DEVICE)
xgc = xg.cpu()
from_grouped = [xgc[p] @ Wc[expert_of[f]] for p, f in enumerate(pairs)]
scatter_back = torch.zeros((T * k, N))
for p, f in enumerate(pairs):
    scatter_back[f] = from_grouped[p]
report("scatter2scatter (x_grouped)", ops.scatter2scatter(xg, W, s_e, s_s, 1, x_grouped=True), scatter_back)
report("scatter2scatter (x_grouped, y_grouped)", ops.scatter2scatter(xg, W, s_e, s_s, 1, x_grouped=True, y_grouped=True),
       torch.stack(from_grouped))

# group: row p of the result is row pairs[p] // fan_out of A, times coeff[pairs[p]].
coeff = torch.rand((T * k,), device=DEVICE)
cc = coeff.cpu()
report("group", ops.group(x, s_s, fan_out=k), torch.stack([xc[f // k] for f in pairs]))
report("group (coeff)", ops.group(xg, s_s, coeff=coeff), torch.stack([xgc[f] * cc[f].item() for f in pairs]))

# group_bwd_W: for each expert, its grouped rows' X^T @ DY (and DY's column sums).
dy = torch.randn((T * k, N), device=DEVICE)
dyc = dy.cpu()
starts = [sum(counts[:e]) for e in range(E)]
dw_ref = torch.stack([xgc[starts[e]:starts[e] + counts[e]].t() @ dyc[starts[e]:starts[e] + counts[e]] for e in range(E)])
db_ref = torch.stack([dyc[starts[e]:starts[e] + counts[e]].sum(0) for e in range(E)])
DW, Db = ops.group_bwd_W(dy, xg, offsets, E, has_bias=True)
report("group_bwd_W", DW, dw_ref)
report("group_bwd_W (bias)", Db, db_ref)

# parallel_linear with gates and biases, forward and backward: y[t] = Σ_j g[t, j] (x[t] W[e] + b[e]).
gates = torch.softmax(torch.randn((T, k), device=DEVICE), dim=-1)
xl = x.clone().requires_grad_()
Wl = W.clone().requires_grad_()
bl = b.clone().requires_grad_()
gl = gates.clone().requires_grad_()
y = scattermoe_kit.parallel_linear(xl, Wl, k, s_e, s_s, offsets, expert_biases=bl, gates=gl)
gc = gates.cpu()
y_ref = torch.stack([sum(gc[t, j].item() * biased[t * k + j] for j in range(k)) for t in range(T)])
report("parallel_linear", y, y_ref)
dy = torch.randn((T, N), device=DEVICE)
y.backward(dy)
dyc = dy.cpu()
dx_ref = torch.stack([sum(gc[t, j].item() * (dyc[t] @ Wc[routes[t][j]].t()) for j in range(k)) for t in range(T)])
dW_ref = torch.zeros((E, K, N))
db_ref = torch.zeros((E, N))
for t in range(T):
    for j in range(k):
        dW_ref[routes[t][j]] += gc[t, j].item() * xc[t][:, None] * dyc[t][None, :]
        db_ref[routes[t][j]] += gc[t, j].item() * dyc[t]
dg_ref = torch.tensor([[float((biased[t * k + j] * dyc[t]).sum()) for j in range(k)] for t in range(T)])
report("parallel_linear (dx)", xl.grad, dx_ref)
report("parallel_linear (dW)", Wl.grad, dW_ref)
report("parallel_linear (db)", bl.grad, db_ref)
report("parallel_linear (dgates)", gl.grad, dg_ref)


# MLP and GLUMLP: y[t] = Σ_j p[t, j] (act(x[t] W1[e]^T + b1[e]) W2[e]^T + b2[e]), and their gradients by hand.
def gelu(h):
    return 0.5 * h * (1 + torch.erf(h / math.sqrt(2)))


def gelu_slope(h):
    return 0.5 * (1 + torch.erf(h / math.sqrt(2))) + h * torch.exp(-0.5 * h * h) / math.sqrt(2 * math.pi)


def silu(h):
    return h * torch.sigmoid(h)


def silu_slope(h):
    s = torch.sigmoid(h)
    return s * (1 + h * (1 - s))


def mlp_reference(W1, b1, W2, b2, glu, p, dy):
    """The output and the gradients of x, p, W1, b1, W2, b2, token by token."""
    hidden = W2.shape[2]
    y = torch.zeros((T, K))
    dx, dp = torch.zeros((T, K)), torch.zeros((T, k))
    dW1, db1, dW2, db2 = torch.zeros(W1.shape), torch.zeros(b1.shape), torch.zeros(W2.shape), torch.zeros(b2.shape)
    for t in range(T):
        for j in range(k):
            e, pj = routes[t][j], p[t, j].item()
            h = xc[t] @ W1[e].t() + b1[e]
            if glu:
                u, g = h[:hidden], h[hidden:]
                a = silu(g) * u
            else:
                a = gelu(h)
            out = a @ W2[e].t() + b2[e]
            y[t] += pj * out
            dp[t, j] = float((out * dy[t]).sum())
            dout = pj * dy[t]
            dW2[e] += dout[:, None] * a[None, :]
            db2[e] += dout
            da = dout @ W2[e]
            dh = torch.cat([da * silu(g), da * u * silu_slope(g)]) if glu else da * gelu_slope(h)
            dW1[e] += dh[:, None] * xc[t][None, :]
            db1[e] += dh
            dx[t] += dh @ W1[e]
    return y, (dx, dp, dW1, db1, dW2, db2)


for name, layer in [("MLP", MLP(K, N, E, k, bias=True, activation=nn.GELU())), ("GLUMLP", GLUMLP(K, N, E, k, bias=True))]:
    for bias in (layer.experts.bias, layer.output_experts.bias):
        nn.init.normal_(bias, std=0.5)
    p = gates.clone().requires_grad_()
    xm = x.clone().requires_grad_()
    y = layer(xm, p, expert_idxs)
    dy = torch.randn((T, K), device=DEVICE)
    y.backward(dy)
    y_ref, grads = mlp_reference(layer.experts.weight.detach().cpu(), layer.experts.bias.detach().cpu(),
                                 layer.output_experts.weight.detach().cpu(), layer.output_experts.bias.detach().cpu(),
                                 name == "GLUMLP", gates.cpu(), dy.cpu())
    report(name, y, y_ref)
    given = (xm, p, layer.experts.weight, layer.experts.bias, layer.output_experts.weight, layer.output_experts.bias)
    for label, tensor, ref in zip(("dx", "dp", "dW1", "db1", "dW2", "db2"), given, grads):
        report(f"{name} ({label})", tensor.grad, ref)


# single2scatter (one token's decoding): row j of the result is X's row (j, or 0 for one row) times W[expert_idxs[0, j]].
Ws = torch.randn((E, 128, 256), device=DEVICE) * 0.1
chosen = torch.randint(0, E, (1, k), device=DEVICE)
picks, Wsc = chosen.cpu().tolist()[0], Ws.cpu()
for rows in (1, k):
    xs = torch.randn((rows, 128), device=DEVICE)
    xsc = xs.cpu()
    report(f"single2scatter ({rows} row{'s' if rows > 1 else ''})", single2scatter(xs, Ws, chosen),
           torch.stack([xsc[j if rows > 1 else 0] @ Wsc[picks[j]] for j in range(k)]))
