"""gemlite's triton_kernels/ layout, in code of ours: the kernel file takes its helpers with `from .utils import *`
and calls `dequantize` by its bare name; a constexpr mode picks whether `scales` / `zeros` are loaded or None before
the helper call (`if(W_group_mode >= 2): scales = tl.load(…) else: scales = None`); quant_utils.py calls its
helpers through module-level aliases (`next_power_of_2_triton = next_power_of_2_bitwise_triton`, `round_triton =
round_triton_nvidia` under `if IS_HIP:` / `else:`)."""

import torch
import triton
import triton.language as tl

from .utils import *  # noqa: F401,F403


@triton.jit
def gemv_int4_kernel(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, N, K, group_size: tl.constexpr, W_group_mode: tl.constexpr,
                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    a = tl.load(a_ptr + offs_k, mask=offs_k < K, other=0.0)
    b = tl.load(b_ptr + (offs_k[:, None] // 8) * N + offs_n[None, :], mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0)
    k_m = (pid_k * (BLOCK_K / group_size)).to(tl.int32)
    if(W_group_mode >= 2):
        scales = tl.load(scales_ptr + k_m * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)
    else:
        scales = None
    if(W_group_mode == 1 or W_group_mode >= 3):
        zeros = tl.load(zeros_ptr + k_m * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)
    else:
        zeros = None
    q_shift = ((offs_k % 8) * 4).to(tl.int32)[:, None]
    b = dequantize(b, scales, zeros, q_shift, tl.float16, 15, W_group_mode)  # noqa: F405
    acc = tl.sum(a.reshape((BLOCK_K, 1), can_reorder=False).to(tl.float32) * b.to(tl.float32), axis=0)
    tl.atomic_add(c_ptr + offs_n, acc, mask=offs_n < N)


# quant_utils.py's module-level aliases: one picked by an `if` on the backend, one plain; the kernel calls the alias.
IS_HIP = False


@triton.jit
def next_power_of_2_bitwise(val):
    xi = tl.cast(val, tl.uint32, bitcast=True)
    exp = (xi >> 23) & 0xFF
    exp += tl.where((xi & 0x7FFFFF) != 0, 1, 0)
    return tl.cast(exp << 23, tl.float32, bitcast=True)


@triton.jit
def next_power_of_2_log(val):
    return tl.exp2(tl.ceil(tl.log2(val)))


if IS_HIP:
    next_power_of_2_triton = next_power_of_2_log
else:
    next_power_of_2_triton = next_power_of_2_bitwise
group_scale = next_power_of_2_triton


@triton.jit
def group_scales_kernel(x_ptr, s_ptr, M, K, GROUP: tl.constexpr, BLOCK_M: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.program_id(1) * GROUP + tl.arange(0, GROUP)
    mask = (offs_m[:, None] < M) & (offs_k[None, :] < K)
    x = tl.load(x_ptr + offs_m[:, None] * K + offs_k[None, :], mask=mask, other=0.0).to(tl.float32)
    scales = group_scale(tl.max(tl.abs(x), axis=1) / 6.0)
    tl.store(s_ptr + offs_m * tl.cdiv(K, GROUP) + tl.program_id(1), scales, mask=offs_m < M)


def group_scales(x, group=32):
    M, K = x.shape
    s = torch.empty((M, triton.cdiv(K, group)), device=x.device, dtype=torch.float32)
    group_scales_kernel[(triton.cdiv(M, 16), triton.cdiv(K, group))](x, s, M, K, GROUP=group, BLOCK_M=16)
    return s


@triton.jit
def fp4_index_kernel(x_ptr, thr_ptr, out_ptr, M, K, GROUP: tl.constexpr, BLOCK_M: tl.constexpr):
    # quant_utils.py's mxfp4 quantizer: the index of each value among 8 thresholds is a count of a mask
    # (tl.sum of int1, which Triton sums as int32), two 4-bit indices packed to a byte with tl.split.
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.program_id(1) * GROUP + tl.arange(0, GROUP)
    mask = (offs_m[:, None] < M) & (offs_k[None, :] < K)
    x = tl.load(x_ptr + offs_m[:, None] * K + offs_k[None, :], mask=mask, other=0.0).to(tl.float32)
    thr = tl.load(thr_ptr + tl.arange(0, 8))[None, :]
    idx_abs = tl.sum(tl.abs(x[:, :, None]) > thr[None, :, :], axis=2)
    out = tl.where(x >= 0, idx_abs, idx_abs + 8).to(out_ptr.dtype.element_ty)
    lo, hi = tl.split(out.reshape((BLOCK_M, GROUP // 2, 2), can_reorder=False))
    out = lo | (hi << 4)
    offs_o = tl.program_id(1) * (GROUP // 2) + tl.arange(0, GROUP // 2)
    tl.store(out_ptr + offs_m[:, None] * (K // 2) + offs_o[None, :], out, mask=(offs_m[:, None] < M) & (offs_o[None, :] < K // 2))


def fp4_indices(x, thresholds, group=32):
    M, K = x.shape
    out = torch.empty((M, K // 2), device=x.device, dtype=torch.uint8)
    fp4_index_kernel[(triton.cdiv(M, 16), triton.cdiv(K, group))](x, thresholds, out, M, K, GROUP=group, BLOCK_M=16)
    return out


def config_pruner(configs, nargs, **kwargs):
    # gemlite's kernel_config_pruner: a generator, each config's blocks fitted to the sizes (K's group here).
    for config in configs:
        block_k = min(config.kwargs["BLOCK_K"], nargs["group_size"])
        yield triton.Config({"BLOCK_N": config.kwargs["BLOCK_N"], "BLOCK_K": block_k}, num_warps=config.num_warps)


@triton.autotune(
    configs=[triton.Config({"BLOCK_N": 64, "BLOCK_K": 128}, num_warps=2), triton.Config({"BLOCK_N": 32, "BLOCK_K": 256}, num_warps=4)],
    key=["N", "K", "group_size"],
    prune_configs_by={"early_config_prune": config_pruner},
)
@triton.jit
def grouped_row_scale_kernel(w_ptr, s_ptr, out_ptr, N, K, group_size: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # One group of K per program along axis 1: the block must not span two groups' scales (the pruner's job).
    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = (offs_k[:, None] < K) & (offs_n[None, :] < N)
    w = tl.load(w_ptr + offs_k[:, None] * N + offs_n[None, :], mask=mask, other=0.0)
    s = tl.load(s_ptr + (tl.program_id(1) * BLOCK_K // group_size) * N + offs_n, mask=offs_n < N, other=0.0)
    tl.store(out_ptr + offs_k[:, None] * N + offs_n[None, :], w * s[None, :], mask=mask)


def grouped_row_scale(w, s, group_size):
    K, N = w.shape
    out = torch.empty_like(w)
    grouped_row_scale_kernel[lambda meta: (triton.cdiv(N, meta["BLOCK_N"]), triton.cdiv(K, meta["BLOCK_K"]))](w, s, out, N, K, group_size)
    return out
