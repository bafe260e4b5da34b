"""Host code around kernels as Liger-Kernel writes it (its fused add + RMS norm, rope, fused linear
cross entropy, sparsemax), in kernels of our own: an autograd.Function with several outputs, one of
them None, differentiated through one output or through torch.autograd.backward on all of them; a
Function that rotates its input in place and returns it; rows sorted with torch.sort before a kernel
takes their running sum with tl.cumsum; one tensor passed as two pointers (also resident on the GPU);
torch.add(input=…, other=…, out=…, alpha=…)."""

import torch

import triton
import triton.language as tl


@triton.jit
def scale_and_square(x_ptr, a_ptr, b_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(a_ptr + offs, x * alpha, mask=mask)
    tl.store(b_ptr + offs, x * x, mask=mask)


@triton.jit
def scale_and_square_backward(x_ptr, ga_ptr, gb_ptr, dx_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    ga = tl.load(ga_ptr + offs, mask=mask, other=0.0)
    gb = tl.load(gb_ptr + offs, mask=mask, other=0.0)
    tl.store(dx_ptr + offs, ga * alpha + 2.0 * x * gb, mask=mask)


class ScaleAndSquare(torch.autograd.Function):
    """(x * alpha, x * x, None): two outputs and a third that is None, like Liger's (loss, z_loss, …)."""

    @staticmethod
    def forward(ctx, x, alpha, with_stats=False):
        a, b = torch.empty_like(x), torch.empty_like(x)
        scale_and_square[(triton.cdiv(x.numel(), 256),)](x, a, b, x.numel(), alpha, BLOCK_SIZE=256)
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return a, b, (a.sum() if with_stats else None)

    @staticmethod
    def backward(ctx, ga, gb, gstats):
        assert gstats is None, "an output that was None has no gradient"
        (x,) = ctx.saved_tensors
        dx = torch.empty_like(x)
        scale_and_square_backward[(triton.cdiv(x.numel(), 256),)](x, ga.contiguous(), gb.contiguous(), dx, x.numel(),
                                                                  ctx.alpha, BLOCK_SIZE=256)
        return dx, None, None


torch.manual_seed(0)
x = torch.randn(37, 61, device="cuda").requires_grad_(True)
a, b, stats = ScaleAndSquare.apply(x, 1.5)
assert stats is None and a.grad_fn is not None and a.grad_fn is b.grad_fn
torch.testing.assert_close(a, x.detach() * 1.5)
ga, gb = torch.randn(37, 61, device="cuda"), torch.randn(37, 61, device="cuda")
b.backward(gb)  # a's gradient is zeros, as torch materializes it
torch.testing.assert_close(x.grad, 2.0 * x.detach() * gb)
x.grad = None
a, b, _ = ScaleAndSquare.apply(x, 1.5)
torch.autograd.backward([a, b], [ga, gb])
torch.testing.assert_close(x.grad, 1.5 * ga + 2.0 * x.detach() * gb)
print("a Function with several outputs: through one of them, and through torch.autograd.backward on both")


@triton.jit
def negate_rows_inplace(x_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(x_ptr + row * stride + cols, -v, mask=mask)


def negate_(t):
    t = t.contiguous()  # t itself when it already is: the kernel writes the caller's tensor
    negate_rows_inplace[(t.shape[0],)](t, t.stride(0), t.shape[1], BLOCK_SIZE=triton.next_power_of_2(t.shape[1]))
    return t


class NegateInPlace(torch.autograd.Function):
    """Rotates (here: negates) its input in place and returns it, as Liger's llama4 rope does."""

    @staticmethod
    def forward(ctx, q, k):
        return negate_(q), negate_(k)

    @staticmethod
    def backward(ctx, dq, dk):
        return negate_(dq), negate_(dk)


q0, k0 = torch.randn(9, 40, device="cuda"), torch.randn(5, 40, device="cuda")
q, k = q0.clone().requires_grad_(True), k0.clone().requires_grad_(True)
q_out, k_out = NegateInPlace.apply(q, k)
assert q_out is not q and q.grad_fn is None and q_out.grad_fn is not None, "the input stays a leaf"
torch.testing.assert_close(q_out, -q0)
torch.testing.assert_close(q, -q0)  # the same storage, rotated in place
dq, dk = torch.randn(9, 40, device="cuda"), torch.randn(5, 40, device="cuda")
expected_dq, expected_dk = -dq, -dk
torch.autograd.backward((q_out, k_out), (dq, dk))
torch.testing.assert_close(q.grad, expected_dq)
torch.testing.assert_close(k.grad, expected_dk)
print("an input rotated in place and returned stays a leaf and gets its gradient")


@triton.jit
def top_p_of_sorted(sorted_ptr, out_ptr, stride, n_cols, top_p, BLOCK_SIZE: tl.constexpr):
    """Rows sorted in descending order: keep the largest entries until their running sum passes top_p."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    z = tl.load(sorted_ptr + row * stride + cols, mask=mask, other=0.0)
    running = tl.cumsum(z, 0)
    tl.store(out_ptr + row * stride + cols, tl.where(running - z < top_p, z, 0.0), mask=mask)


probs = torch.softmax(torch.randn(13, 300, device="cuda") * 2, dim=-1)
ordered = torch.sort(probs, dim=-1, descending=True)
values, indices = ordered
assert ordered.values is values and indices.dtype == torch.int64
assert torch.equal(values, probs.sort(dim=1, descending=True)[0])
kept = torch.empty_like(values)
top_p_of_sorted[(13,)](values, kept, values.stride(0), 300, 0.9, BLOCK_SIZE=512)
expected = torch.where(torch.cumsum(values, dim=-1) - values < 0.9, values, 0.0)
torch.testing.assert_close(kept, expected)
ties = torch.tensor([[3.0, 1.0, 3.0, float("nan"), 2.0], [0.5, -1.0, 0.5, 0.5, float("-inf")]], device="cuda")
v, i = torch.sort(ties, descending=True)
assert i.tolist() == [[3, 0, 2, 4, 1], [0, 2, 3, 1, 4]], i.tolist()  # NaN first, ties in their order
assert ties.argsort(dim=0).tolist() == [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0]]
assert torch.argsort(ties[1]).tolist() == [4, 1, 0, 2, 3]
print("rows sorted by torch.sort, their running sum taken by tl.cumsum")

@triton.jit
def write_halves(a_ptr, b_ptr, n, HAS_B: tl.constexpr, BLOCK: tl.constexpr):
    """The first half through a_ptr, the second through b_ptr where HAS_B (else b_ptr is a placeholder)."""
    offs = tl.arange(0, BLOCK)
    half = n // 2
    tl.store(a_ptr + offs, offs.to(tl.float32) + 1.0, mask=offs < half)
    if HAS_B:
        tl.store(b_ptr + offs, -(offs.to(tl.float32) + 1.0), mask=(offs >= half) & (offs < n))


# One tensor passed as two pointers, as Liger's modulated RMS norm passes dScale again for the
# dShift it doesn't have: what the kernel writes through either pointer is there afterwards.
ramp = torch.arange(101, device="cuda").float() + 1.0
for has_b in (False, True):
    t = torch.zeros(101, device="cuda")
    write_halves[(1,)](t, t, 101, HAS_B=has_b, BLOCK=128)
    torch.testing.assert_close(t, torch.where(ramp <= 50, ramp, -ramp if has_b else 0.0))
# The same on tensors resident on the GPU whose CPU copies are out of date (filled there by torch.full,
# made by a torch op there): what the kernel leaves alone keeps the GPU's values, and the launches
# after, which bind the buffer as it is, see what was written through both pointers.
for has_b in (False, True):
    t = torch.full((101, ), 7.0, device="cuda")
    assert t._data.gpu and not t._data.host, "the premise: its elements are only on the GPU"
    write_halves[(1,)](t, t, 101, HAS_B=has_b, BLOCK=128)
    u = t * 2.0
    assert u._data.gpu and not u._data.host, "the premise: its elements are only on the GPU"
    write_halves[(1,)](u, u, 60, HAS_B=has_b, BLOCK=128)
    want_t = torch.where(ramp <= 50, ramp, -ramp if has_b else 7.0)
    want_u = torch.where(ramp <= 30, ramp, torch.where(ramp <= 60, -ramp, 2.0 * want_t) if has_b else 2.0 * want_t)
    torch.testing.assert_close(t, want_t)
    torch.testing.assert_close(u + 0.0, want_u)
print("one tensor passed as two pointers keeps what was written through each")

grad_bias = torch.zeros(300, device="cuda")
chunk = torch.randn(7, 300, device="cuda")
for _ in range(2):
    torch.add(input=grad_bias, other=chunk.sum(dim=0), out=grad_bias, alpha=0.5)
torch.testing.assert_close(grad_bias, chunk.sum(dim=0))
assert torch.equal(torch.sub(chunk, chunk, alpha=2), -chunk)
assert chunk.view_as(kept[:7].t().contiguous()).shape == (300, 7) and not chunk.is_complex()


@torch.no_grad  # without parentheses, as Liger's grpo_loss writes it
def grad_mode_inside():
    return torch.is_grad_enabled()


assert grad_mode_inside() is False and torch.is_grad_enabled()
spread = chunk.sum(dim=0, keepdim=True).broadcast_to(chunk.shape)  # Liger's fused linear JSD
assert spread.shape == chunk.shape and torch.equal(spread[6], chunk.sum(dim=0))
print("torch.add(input=, other=, out=, alpha=), view_as, is_complex, broadcast_to, @torch.no_grad")
