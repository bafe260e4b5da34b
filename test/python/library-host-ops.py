"""Host code around kernels as unsloth writes it (rope_embedding's Slow_RoPE_Embedding, fast_lora's
LoRA_MLP, utils.py's module-level probes), on GPU tensors and with --cpu: indexing with a tensor —
`cos[position_ids]`, `x[mask]`, `x[mask] = v`, `x[:, [0, 2]] = v` — then a kernel of ours on the
gathered rows; addcmul_, addmm_(beta=0, alpha=s), matmul(out=), mv, addmv_; x.new_empty & co.; logsumexp, masked_fill_; gradients through transpose, contiguous, view, casts; torch.nn.Module and
Identity as base classes and markers; torch._C's stream probe, torch._disable_dynamo."""

import math

import torch

import triton
import triton.language as tl


@triton.jit
def rotate_rows(x_ptr, cos_ptr, sin_ptr, out_ptr, n_cols, HALF: tl.constexpr):
    # out = x * cos + rotate_half(x) * sin, one row per program, cos/sin rows gathered on the host
    row = tl.program_id(0)
    offs = tl.arange(0, HALF)
    mask = offs < n_cols // 2
    x1 = tl.load(x_ptr + row * n_cols + offs, mask=mask)
    x2 = tl.load(x_ptr + row * n_cols + n_cols // 2 + offs, mask=mask)
    c = tl.load(cos_ptr + row * n_cols + offs, mask=mask)
    s = tl.load(sin_ptr + row * n_cols + offs, mask=mask)
    tl.store(out_ptr + row * n_cols + offs, x1 * c - x2 * s, mask=mask)
    tl.store(out_ptr + row * n_cols + n_cols // 2 + offs, x2 * c + x1 * s, mask=mask)


torch.manual_seed(0)
D, POS, ROWS = 20, 9, 13
half = torch.randn(POS, D // 2, device="cuda")
table = torch.cat((half, half), dim=-1)  # angles as HF's rotary embedding makes them: both halves alike
pos = torch.randint(0, POS, (ROWS,), device="cuda")
picked = table[pos]  # a gather by an int64 tensor
assert picked.shape == (ROWS, D) and picked.is_contiguous()
rows = table.tolist()
assert picked.tolist() == [rows[p] for p in pos.tolist()]
assert table[pos.view(1, ROWS)].shape == (1, ROWS, D)            # the index's shape, then the rest
assert table[:, torch.tensor([3, -1])].tolist() == [[r[3], r[-1]] for r in rows]  # negative wraps
assert table[[2, 0]].tolist() == [rows[2], rows[0]]                # a list is an index tensor

# the gathered rows into a kernel: rope by positions, against torch's own ops
x = torch.randn(ROWS, D, device="cuda")
cos, sin = torch.cos(table)[pos], torch.sin(table)[pos]
out = torch.empty_like(x)
rotate_rows[(ROWS,)](x, cos, sin, out, D, HALF=16)
rot = torch.cat((-x[:, D // 2:], x[:, :D // 2]), dim=-1)
ref = x.clone()
ref *= cos
ref.addcmul_(rot, sin)  # Slow_RoPE_Embedding's `Q *= cos; Q.addcmul_(RH_Q, sin)`
torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-5)

# boolean masks: read (row-major order) and written, over one dim and over several
y = torch.randn(4, 5, device="cuda")
m = y > 0
flat, keep = y.reshape(-1).tolist(), m.reshape(-1).tolist()
assert y[m].tolist() == [v for v, k in zip(flat, keep) if k]
z = y.clone()
z[m] = 0.0
assert z.tolist() == [[0.0 if v > 0 else v for v in r] for r in y.tolist()]
z = y.clone()
z[y[:, 0] > 0] = torch.arange(5.0, device="cuda")  # a row mask, each chosen row set to the row value
assert z.tolist() == [list(range(5)) if r[0] > 0 else r for r in [[float(v) for v in r] for r in y.tolist()]]
z = y.clone()
z[:, [0, 2]] = -1.0
assert all(r[0] == -1.0 and r[2] == -1.0 and r[1] == q[1] for r, q in zip(z.tolist(), y.tolist()))
assert y[y > 100].shape == (0,)
for bad, kind in ((lambda: y[torch.tensor([True, False])], IndexError), (lambda: y[pos, pos], NotImplementedError),
                  (lambda: table[torch.tensor([POS])], IndexError)):
    try:
        bad()
        raise AssertionError("not refused")
    except kind:
        pass

# LoRA_MLP's matmuls: addmm_(…, alpha=s, beta=0) ignores what the tensor held, matmul(out=), mv, addmv_
a, b = torch.randn(7, 5, device="cuda"), torch.randn(5, 3, device="cuda")
acc = torch.full((7, 3), float("nan"), device="cuda")
acc.addmm_(a, b, alpha=0.5, beta=0)
torch.testing.assert_close(acc, 0.5 * (a @ b))
acc.addmm_(a, b)  # beta 1, alpha 1: acc + a @ b
torch.testing.assert_close(acc, 1.5 * (a @ b))
into = torch.empty(7, 3, device="cuda")
assert torch.matmul(a, b, out=into) is into
torch.testing.assert_close(into, a @ b)
v = torch.randn(5, device="cuda")
torch.testing.assert_close(torch.mv(a, v), (a @ v[:, None])[:, 0])
w = torch.ones(7, device="cuda")
w.addmv_(a, v, alpha=2.0)
torch.testing.assert_close(w, 1 + 2 * (a @ v[:, None])[:, 0])
torch.testing.assert_close(torch.addcdiv(w, a[:, 0], a[:, 1], value=3.0), w + 3 * a[:, 0] / a[:, 1])

# x.new_empty & co.: x's dtype and device unless given (fp8.py's `A.new_empty(C_shape, dtype=…)`)
half16 = a.half()
made = half16.new_empty((2, 3))
assert made.dtype == torch.float16 and made.device.type == "cuda" and made.shape == (2, 3)
assert half16.new_zeros(2, 3, dtype=torch.float32).tolist() == [[0.0] * 3] * 2
assert a.new_full((2,), 7.0).tolist() == [7.0, 7.0] and a.new_ones(1).tolist() == [1.0]
assert pos.new_tensor([1, 2]).dtype == torch.int64

# logsumexp (the chunked cross-entropy sums its chunks' so), over one dim and two, rows of -inf;
# masked_fill_ with a broadcast mask
chunks = torch.randn(6, 4, device="cuda") * 20
chunks[5] = float("-inf")
lse = torch.logsumexp(chunks, dim=1)
ref_lse = [max(r) + math.log(sum(math.exp(v - max(r)) for v in r)) for r in chunks.tolist()[:5]]
torch.testing.assert_close(lse[:5], torch.tensor(ref_lse, device="cuda"))
assert lse[5].item() == float("-inf") and chunks.logsumexp(0, keepdim=True).shape == (1, 4)
torch.testing.assert_close(torch.logsumexp(chunks[:5], dim=(0, 1)), torch.tensor(math.log(sum(math.exp(v) for v in chunks[:5].reshape(-1).tolist())), device="cuda"))
losses = torch.ones(6, 4, device="cuda")
losses.masked_fill_(torch.tensor([True, False, True, False], device="cuda"), 0)
assert losses.sum().item() == 12.0 and losses[:, 1].tolist() == [1.0] * 6


# A gradient through the reshaping ops around a Function, as fast_rope_embedding writes them:
# `Fast_RoPE_Embedding.apply(Q.transpose(1, 2).contiguous(), …).transpose(1, 2)`. Before, the
# transpose and the copy came out without requires_grad, and the gradient never reached Q.
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t * t

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return 3 * t * t * g


q = torch.randn(2, 3, 5, 4, device="cuda", requires_grad=True)
rotated = Cube.apply(q.transpose(1, 2).contiguous().view(2, 5, 12).half()).view(2, 5, 3, 4).transpose(1, 2)
assert rotated.requires_grad and rotated.shape == (2, 3, 5, 4)
g = torch.randn(2, 3, 5, 4, device="cuda")
rotated.backward(g)
torch.testing.assert_close(q.grad, 3 * q.detach() * q.detach() * g, atol=2e-2, rtol=4e-3)  # the cube in f16
p = torch.randn(4, 6, device="cuda", requires_grad=True)
Cube.apply(p.t().reshape(2, 12).clone().unsqueeze(0).permute(2, 0, 1).squeeze()).backward(torch.ones(12, 2, device="cuda"))
torch.testing.assert_close(p.grad, 3 * p.detach() * p.detach())
assert p.detach().clone().requires_grad is False and p.clone().detach().grad_fn is None
# and through indexing, split/narrow (built on it) and expand: scattered back, summed over the broadcast
r = torch.randn(4, 6, device="cuda", requires_grad=True)
left, right = r.split([2, 4], dim=1)
parts = [Cube.apply(r[1:, 2:5].contiguous()), Cube.apply(right.narrow(0, 0, 2).contiguous()), Cube.apply(r[0].expand(3, 6).contiguous())]
torch.autograd.backward(parts, [torch.ones_like(t) for t in parts])
rd = r.detach()
want = torch.zeros(4, 6, device="cuda")
want[1:, 2:5] += 3 * rd[1:, 2:5] * rd[1:, 2:5]
want[0:2, 2:] += 3 * rd[0:2, 2:] * rd[0:2, 2:]
want[0] += 3 * (3 * rd[0] * rd[0])
torch.testing.assert_close(r.grad, want)


# nn.Module as transformers' layers subclass it; Identity as peft's no-dropout marker
class Scale(torch.nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, t):
        return t * self.s


layer = Scale(3.0)
assert isinstance(layer, torch.nn.Module) and layer.training
torch.testing.assert_close(layer(v), v * 3.0)
drop = torch.nn.Identity(p=0.1)
assert isinstance(drop, torch.nn.Identity) and drop(v) is v
try:
    layer.parameters()
    raise AssertionError("not refused")
except NotImplementedError as e:
    assert "torch.nn.Module.parameters" in str(e)

# unsloth/kernels/utils.py's probes while it imports
assert not hasattr(torch._C, "_cuda_someBinding")
assert torch._C._cuda_getCurrentRawStream(0) == 0 == torch.cuda.current_stream().cuda_stream
f = lambda t: t  # noqa: E731
assert torch._disable_dynamo(f) is f
print("indexing with tensors, LoRA's matmuls, nn.Module, torch._C: match")
