"""An autotuned kernel whose first config's blocks need more workgroup memory than the adapter has
(mamba's SSD kernels list 128×256 blocks first): Triton's autotuner drops a config that raises
OutOfResources, so the run takes the next one that fits, with --bench off and --cpu too (untimed),
and leaves no KL2016 behind. A config too big launched directly raises
triton.runtime.errors.OutOfResources, a CompilationError. Sizes off the blocks."""

import torch
import triton
import triton.language as tl
from triton.runtime.errors import OutOfResources

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def row_dots_kernel(X, W, Y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(X + rows[:, None] * N + cols[None, :], mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)
        w = tl.load(W + cols, mask=cols < N, other=0.0)
        acc += x * w[None, :]
    tl.store(Y + rows, tl.sum(acc, axis=1), mask=rows < M)


@triton.jit
def block_sum_kernel(X, Y, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :])
    tl.store(Y + tl.arange(0, BLOCK_M), tl.sum(x * x, axis=1))


tuned = triton.autotune(
    configs=[triton.Config({"BLOCK_M": 128, "BLOCK_N": 512}), triton.Config({"BLOCK_M": 16, "BLOCK_N": 32})],
    key=["N"],
)(row_dots_kernel)

M, N = 45, 300
x = torch.randn(M, N, device=DEVICE)
w = torch.randn(N, device=DEVICE)
y = torch.full((M,), float("nan"), device=DEVICE)
tuned[lambda meta: (triton.cdiv(M, meta["BLOCK_M"]),)](x, w, y, M, N)
assert tuned.best_config.kwargs == {"BLOCK_M": 16, "BLOCK_N": 32}, tuned.best_config
torch.testing.assert_close(y, (x * w).sum(dim=1), rtol=1e-4, atol=1e-4)

try:
    big = torch.randn(256 * 256, device=DEVICE)
    block_sum_kernel[(1,)](big, y, BLOCK_M=256, BLOCK_N=256)
    raise AssertionError("256×256 blocks fit?")
except OutOfResources as e:
    assert isinstance(e, triton.compiler.CompilationError)
    assert "KL2016" in str(e)
print("autotune drops the config out of resources: match")
