"""gemlite's triton_kernels/ layout, in code of ours: the kernel file takes its helpers with `from .utils import *`
and calls `dequantize` by its bare name; a constexpr mode picks whether `scales` / `zeros` are loaded or None before
the helper call (`if(W_group_mode >= 2): scales = tl.load(…) else: scales = None`)."""

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
