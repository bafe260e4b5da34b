"""torch.random (seed, manual_seed, initial_seed, get_rng_state / set_rng_state) and torch.triu / torch.tril,
as kernel libraries use them: kakaobrain/trident's dropout and attention pass `torch.random.seed()` straight to
a kernel as its seed (so it must be an int32 argument), and attention references build a causal mask with
torch.triu. The kernel here is ours."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def dropout_kernel(out_ptr, x_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    keep = tl.rand(seed, offs) > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


# seed(): a fresh non-negative 31-bit int each call, set as the generator's seed.
seeds = [torch.random.seed() for _ in range(4)]
assert all(type(s) is int and 0 <= s < 2**31 for s in seeds), seeds
assert len(set(seeds)) > 1, seeds
assert torch.random.initial_seed() == seeds[-1]
assert torch.seed is torch.random.seed and torch.manual_seed is torch.random.manual_seed
torch.random.manual_seed(1234)
assert torch.random.initial_seed() == 1234 and torch.initial_seed() == 1234
torch.manual_seed(2**40 + 5)
assert torch.random.initial_seed() == 2**40 + 5
torch.manual_seed(-1)
assert torch.initial_seed() == 2**64 - 1
print("torch.random.seed: 31-bit ints, fresh each call; manual_seed / initial_seed round-trip")

# The state: what is drawn after get_rng_state is drawn again after set_rng_state, on the CPU and the GPU.
torch.manual_seed(7)
state = torch.get_rng_state()
a_cpu, a_gpu = torch.rand(5), torch.rand(5, device=DEVICE)
torch.random.set_rng_state(state)
b_cpu, b_gpu = torch.rand(5), torch.rand(5, device=DEVICE)
torch.testing.assert_close(a_cpu, b_cpu, atol=0, rtol=0)
torch.testing.assert_close(a_gpu.cpu(), b_gpu.cpu(), atol=0, rtol=0)
print("get_rng_state / set_rng_state: the same draws again")

# A kernel seeded from torch.random.seed(): the seed passes as its int32; kept elements are x / (1 - p).
n, p = 3000, 0.25
x = torch.randn(n, device=DEVICE) + 5.0
out = torch.empty_like(x)
seed = torch.random.seed()
dropout_kernel[(triton.cdiv(n, 256),)](out, x, n, p, seed, BLOCK=256)
kept = out != 0
torch.testing.assert_close(out[kept], x[kept] / (1 - p))
fraction = kept.float().mean().item()
assert abs(fraction - (1 - p)) < 0.05, fraction
again = torch.empty_like(x)
dropout_kernel[(triton.cdiv(n, 256),)](again, x, n, p, seed, BLOCK=256)
torch.testing.assert_close(again, out, atol=0, rtol=0)
print(f"a kernel seeded from torch.random.seed(): kept x / (1 - p), {fraction:.2f} kept, the same seed the same mask")


def expected(rows, cols, diagonal, upper, value):
    return [[(value(i, j) if ((j - i >= diagonal) if upper else (j - i <= diagonal)) else 0) for j in range(cols)] for i in range(rows)]


# triu / tril at diagonals negative, zero and positive, past the corners too, on non-square shapes, CPU and GPU.
for device in ["cpu", DEVICE]:
    for rows, cols in [(5, 8), (7, 3)]:
        m = torch.arange(1, rows * cols + 1, dtype=torch.float32).reshape(rows, cols).to(device)
        for diagonal in [-9, -2, -1, 0, 1, 3, 9]:
            for upper in [True, False]:
                got = torch.triu(m, diagonal) if upper else torch.tril(m, diagonal=diagonal)
                method = m.triu(diagonal) if upper else m.tril(diagonal)
                want = torch.tensor(expected(rows, cols, diagonal, upper, lambda i, j: float(i * cols + j + 1)))
                assert got.device == m.device and got.dtype == m.dtype and tuple(got.shape) == (rows, cols)
                assert got.cpu().tolist() == want.tolist(), (device, rows, cols, diagonal, upper, got.cpu().tolist())
                assert method.cpu().tolist() == want.tolist()
    # A batch of views (a transpose: read through its strides), float16, bool, int64, and in place.
    b = torch.randn(2, 3, 4, 6, device=device).transpose(-1, -2)
    want = torch.where(torch.arange(4).view(1, 4) - torch.arange(6).view(6, 1) >= -1, b.cpu(), torch.zeros(()))
    assert torch.triu(b, -1).cpu().tolist() == want.tolist()
    h = torch.randn(6, 5, device=device).half()
    assert torch.tril(h, 1).dtype == torch.float16
    assert torch.tril(h, 1).cpu().tolist() == torch.tensor(expected(6, 5, 1, False, lambda i, j: h.cpu()[i, j].item())).half().tolist()
    ones = torch.ones(4, 6, dtype=torch.bool, device=device)
    assert torch.triu(ones, 2).cpu().tolist() == [[j - i >= 2 for j in range(6)] for i in range(4)]
    ints = torch.arange(12, device=device).reshape(3, 4)
    assert torch.tril(ints, -1).dtype == torch.int64
    assert torch.tril(ints, -1).cpu().tolist() == expected(3, 4, -1, False, lambda i, j: i * 4 + j)
    inplace = torch.ones(3, 5, device=device)
    inplace.triu_(1)
    assert inplace.cpu().tolist() == expected(3, 5, 1, True, lambda i, j: 1.0)
print("torch.triu / torch.tril: diagonals -9 to 9 on 5x8 and 7x3, batched views, float16, bool, int64, in place; CPU and GPU")

# The causal mask attention references build: -inf above the diagonal.
s = torch.randn(2, 3, 10, 10, device=DEVICE)
causal = torch.triu(torch.ones(10, 10, device=DEVICE), 1) > 0
masked = s.masked_fill(causal, float("-inf"))
ref = torch.where(torch.arange(10).view(1, 10) > torch.arange(10).view(10, 1), torch.full((10, 10), float("-inf")), s.cpu())
torch.testing.assert_close(masked.cpu(), ref)

# The gradient of triu is the triangle of the gradient.
w = torch.randn(4, 5, device=DEVICE, requires_grad=True)
g = torch.randn(4, 5, device=DEVICE)
torch.tril(w, 1).backward(g)
torch.testing.assert_close(w.grad.cpu(), torch.tril(g, 1).cpu())
print("a causal mask from torch.triu; tril's gradient: match")
