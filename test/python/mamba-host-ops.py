"""Host code and a kernel idiom of mamba's layer_norm.py (state-spaces/mamba, mamba_ssm/ops/triton/):
`torch.randint(2**32, (M,), dtype=torch.int64)` (high and size, low left out), `tensor_split` of its
dropout masks, ssd_combined.py's reversed cumsum (`x.flip([-1]).cumsum(dim=-1).flip([-1])`), `torch.are_deterministic_algorithms_enabled()` (its determinism.py), the norm modules' nn.Parameter, F.linear, F.softplus and torch.einsum,
register_parameter and nn.init.ones_, and a kernel whose
`x_hat = (x - mean) * rstd if not IS_RMS_NORM else x * rstd` reads `mean`, which the RMS case never
assigns: Triton compiles only the branch a constexpr condition picks. Sizes off the block."""

import math

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def norm_rows_kernel(X, Y, N, eps, IS_RMS_NORM: tl.constexpr, HAS_BIAS: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(X + row * N + cols, mask=cols < N, other=0.0)
    if not IS_RMS_NORM:
        mean = tl.sum(x, axis=0) / N
        xbar = tl.where(cols < N, x - mean, 0.0)
    else:
        xbar = tl.where(cols < N, x, 0.0)
    if HAS_BIAS:
        b = 0.5
    rstd = 1 / tl.sqrt(tl.sum(xbar * xbar, axis=0) / N + eps)
    x_hat = (x - mean) * rstd if not IS_RMS_NORM else x * rstd
    y = x_hat + b if HAS_BIAS else x_hat
    tl.store(Y + row * N + cols, y, mask=cols < N)


M, N = 13, 300
x = torch.randn(M, N, device=DEVICE)
for rms, bias in [(False, True), (True, False)]:
    y = torch.empty_like(x)
    norm_rows_kernel[(M,)](x, y, N, 1e-5, IS_RMS_NORM=rms, HAS_BIAS=bias, BLOCK_N=512)
    xc = x if rms else x - x.mean(dim=1, keepdim=True)
    want = xc / torch.sqrt((xc * xc).mean(dim=1, keepdim=True) + 1e-5) + (0.5 if bias else 0.0)
    torch.testing.assert_close(y, want, rtol=1e-4, atol=1e-4)

seeds = torch.randint(2**32, (2 * M,), device=DEVICE, dtype=torch.int64)
assert seeds.shape == (2 * M,) and seeds.dtype == torch.int64
# int64 tensors hold 32 bits here (docs/LANGUAGE.md §2.9): a draw of [0, 2**32) keeps its low word, as the
# kernel's `tl.load(SEEDS + row).to(tl.uint32)` reads it.
assert int(seeds.min()) < 0 < int(seeds.max())
small = torch.randint(3, 7, (1000,))
assert int(small.min()) == 3 and int(small.max()) == 6

parts = torch.arange(26).reshape(13, 2).tensor_split(3, dim=0)
assert [p.shape[0] for p in parts] == [5, 4, 4]
assert parts[1][0, 0].item() == 10
cut = torch.arange(10).tensor_split([2, -3, 20])
assert [c.tolist() for c in cut] == [[0, 1], [2, 3, 4, 5, 6], [7, 8, 9], []]

# ssd_chunk_scan.py's dD[:n].sum(dim=(0, 1, 2)) of a 5-D tensor on the device (was AttributeError on the GPU)
parts = torch.arange(2 * 3 * 4 * 5 * 2, device=DEVICE).reshape(2, 3, 4, 5, 2).float()
assert parts[:1].sum(dim=(0, 1, 2)).tolist() == parts[:1].cpu().reshape(12, 5, 2).sum(dim=0).tolist()
assert parts.sum(dim=(0, 1, 2))[4, 1].item() == sum(range(9, 240, 10))

# LayerNormLinearFn's F.linear and torch.einsum("bo,bi->oi", dout, y); selective_state_update_ref's "bhdn,bhn->bhd"
a, b = torch.randn(5, 3, device=DEVICE), torch.randn(5, 4, device=DEVICE)
torch.testing.assert_close(torch.einsum("bo,bi->oi", a, b), a.t() @ b)
lin_w, lin_b = torch.randn(4, 3, device=DEVICE), torch.randn(4, device=DEVICE)
torch.testing.assert_close(torch.nn.functional.linear(a, lin_w, lin_b), a @ lin_w.t() + lin_b)
st, cs = torch.randn(2, 3, 7, 6, device=DEVICE), torch.randn(2, 3, 6, device=DEVICE)
torch.testing.assert_close(torch.einsum("bhdn,bhn->bhd", st, cs), (st * cs.unsqueeze(2)).sum(-1))
torch.testing.assert_close(torch.einsum("ijk->kj", st[0]), st[0].sum(0).t())
torch.testing.assert_close(torch.einsum("ij,ij", a, a), (a * a).sum())
torch.testing.assert_close(torch.einsum("ij,jk,kl->il", a, lin_w.t(), torch.ones(4, 2, device=DEVICE)), (a @ lin_w.t()).sum(1, keepdim=True).expand(5, 2))

# selective_state_update_ref's F.softplus (x itself past the threshold)
sp_x = torch.tensor([-30.0, -1.0, 0.0, 2.0, 19.0, 25.0, 100.0], device=DEVICE)
sp_want = torch.tensor([math.log1p(math.exp(v)) if v <= 20 else v for v in sp_x.tolist()])
torch.testing.assert_close(torch.nn.functional.softplus(sp_x).cpu(), sp_want)
torch.testing.assert_close(torch.nn.functional.softplus(sp_x, beta=2.0, threshold=10.0).cpu(),
                           torch.tensor([math.log1p(math.exp(2 * v)) / 2 if 2 * v <= 10 else v for v in sp_x.tolist()]))

# ssd_combined.py's reversed cumsum
rows = torch.arange(12, device=DEVICE).reshape(3, 4).float()
assert rows.flip([-1]).cumsum(dim=-1).flip([-1])[1].tolist() == [22.0, 18.0, 13.0, 7.0]
assert torch.flip(rows, [0, 1])[0].tolist() == [11.0, 10.0, 9.0, 8.0]

assert torch.are_deterministic_algorithms_enabled() is False
torch.use_deterministic_algorithms(True, warn_only=True)
assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
torch.use_deterministic_algorithms(False)
# The norm modules' weights: nn.Parameter, register_parameter(name, None), nn.init.ones_ / zeros_.
class Scale(torch.nn.Module):
    def __init__(self, n, device=None):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.empty(n, device=device))
        self.register_parameter("bias", None)
        torch.nn.init.ones_(self.weight)

    def forward(self, v):
        return v * self.weight


layer = Scale(5, device=DEVICE)
assert isinstance(layer.weight, torch.nn.Parameter) and isinstance(layer.weight, torch.Tensor)
assert layer.weight.requires_grad and layer.weight.grad_fn is None and layer.bias is None
assert layer.weight.tolist() == [1.0] * 5
with torch.no_grad():
    out = layer(torch.full((5,), 2.0, device=DEVICE))
assert type(out) is torch.Tensor and out.tolist() == [2.0] * 5
base = torch.zeros(3)
shared = torch.nn.Parameter(base, requires_grad=False)
torch.nn.init.constant_(shared, 4.0)
assert base.tolist() == [4.0] * 3 and not shared.requires_grad
try:
    layer.register_parameter("w2", torch.zeros(2))
    raise AssertionError("a plain tensor registered as a parameter")
except TypeError:
    pass

print("mamba's host ops and constexpr ternaries: match")
