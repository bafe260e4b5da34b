"""Idioms of DeepSpeed's Triton kernels (microsoft/DeepSpeed, deepspeed/ops/transformer/inference/
triton/), in kernels of ours. triton_matmul_kernel.py's `_fp_matmul` walks K down,
`for k in range(K, 0, -BLOCK_K * SPLIT_K)`: a negative step whose sign the text doesn't show (a
constexpr product, or a name bound to one), which Triton's for takes as counting down. The same kernel loads
`b = tl.load(B)`, [BLOCK_K, BLOCK_N], in that loop and then `b = tl.load(bias_ptr)`, [BLOCK_N], under
`if BIAS_ADD:` (a constexpr) after it: the name is rebound, as Python rebinds it. Its autotuner is
Triton 2.1's: `early_config_prune(configs, named_args)` takes no launch keyword arguments (Triton 3
passes them all), reads `triton.runtime.driver.utils` (Triton 2.x's name of the active driver's
utils), and DeepSpeed's tests keep one config (`skip_autotune`), which Triton launches without
pruning. Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def k_down(X, OUT, K, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # Sums X[0:K] a block at a time, walking K down as _fp_matmul does; counts the trips.
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    trips = 0
    for k in range(K, 0, -BLOCK_K * SPLIT_K):
        x = tl.load(X + rk, mask=rk < k, other=0.0)
        acc += x
        X += BLOCK_K * SPLIT_K
        trips += 1
    tl.store(OUT, tl.sum(acc, axis=0))
    tl.store(OUT + 1, trips.to(tl.float32))
    # The same walk with the step bound to a name first (a constexpr, as in Triton).
    step = -BLOCK_K * SPLIT_K
    down = 0
    for k in range(K, 0, step):
        down += 1
    tl.store(OUT + 2, down.to(tl.float32))


def prune(configs, named_args):
    # Triton 2.1's signature: no **kwargs.
    smem = triton.runtime.driver.utils.get_device_properties(0)["max_shared_mem"]
    return [c for c in configs if c.kwargs["BLOCK_N"] * 4 <= smem and c.kwargs["BLOCK_N"] <= 16]


@triton.autotune(configs=[triton.Config({"BLOCK_N": 16}), triton.Config({"BLOCK_N": 32})], key=["N"],
                 prune_configs_by={"early_config_prune": prune, "perf_model": None, "top_k": 10})
@triton.jit
def k_bias(A, BIAS, OUT, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BIAS_ADD: tl.constexpr):
    # acc[m, n] = sum over row blocks of A (b is [BLOCK_M, BLOCK_N] in the loop), then + bias (b is [BLOCK_N]).
    rn = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rm = tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for m in range(0, M, BLOCK_M):
        b = tl.load(A + (m + rm)[:, None] * N + rn[None, :], mask=((m + rm)[:, None] < M) & (rn[None, :] < N), other=0.0)
        acc += tl.sum(b, axis=0)
    if BIAS_ADD:
        b = tl.load(BIAS + rn, mask=rn < N)
        acc = acc + b
    tl.store(OUT + rn, acc, mask=rn < N)


def main():
    x = torch.randn(70, device=DEVICE)
    out = torch.zeros(3, device=DEVICE)
    k_down[(1,)](x, out, 70, BLOCK_K=16, SPLIT_K=2)  # k = 70, 38, 6: x[0:16] + x[32:48] + x[64:70]
    want = x[0:16].sum().item() + x[32:48].sum().item() + x[64:70].sum().item()
    got = out.tolist()
    ok = abs(got[0] - want) <= 1e-4 and got[1] == 3.0 and got[2] == 3.0
    print(f"range(K, 0, -BLOCK_K * SPLIT_K) counts down, the step named too: {'match' if ok else f'MISMATCH {got} want {want}, 3 trips'}")

    M, N = 37, 45
    a = torch.randn((M, N), device=DEVICE)
    bias = torch.randn(N, device=DEVICE)
    out = torch.empty(N, device=DEVICE)
    k_bias[lambda meta: (triton.cdiv(N, meta["BLOCK_N"]),)](a, bias, out, M, N, BLOCK_M=8, BIAS_ADD=1)
    torch.testing.assert_close(out, a.sum(0) + bias, atol=1e-4, rtol=1e-4)
    print(f"a loop's name rebound after it under a constexpr if; a Triton 2.1 prune (BLOCK_N {k_bias.best_config.kwargs['BLOCK_N']}): match")

    k_bias.configs = [triton.Config({"BLOCK_N": 64})]  # as DeepSpeed's skip_autotune: one config, which the prune would drop
    k_bias.cache = {}
    out = torch.empty(N, device=DEVICE)
    k_bias[lambda meta: (triton.cdiv(N, meta["BLOCK_N"]),)](a, bias, out, M, N, BLOCK_M=8, BIAS_ADD=1)
    torch.testing.assert_close(out, a.sum(0) + bias, atol=1e-4, rtol=1e-4)
    print("a single config is launched unpruned: match")


main()
