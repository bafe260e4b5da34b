"""vllm's prefix_prefill.py shape, in a kernel of ours: an online softmax over a prefix in tiles
of 32 keys, then over the block's own keys in tiles of 64, the running row maximum and sum carried
from one loop into the other. With num_warps=2 the two tiles lay their rows out differently, so the
second loop's row reductions can't use the row layout the first loop gave the running statistics:
they go through the tile's own rows and are then re-laid (a [64, 2] array), where they were staged
whole (16 KiB, over WebGPU's default 16 KiB with the dot's operands: KL2016). Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def prefix_then_causal_kernel(q_ptr, k_ptr, v_ptr, out_ptr, n_ctx, n_new,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr, D: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < n_new, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    offs_c = tl.arange(0, BLOCK_C)
    for start in range(0, n_ctx, BLOCK_C):
        keys = start + offs_c
        k = tl.load(k_ptr + keys[None, :] * D + offs_d[:, None], mask=keys[None, :] < n_ctx, other=0.0)
        qk = tl.dot(q, k) * 0.25
        qk = tl.where(keys[None, :] < n_ctx, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        v = tl.load(v_ptr + keys[:, None] * D + offs_d[None, :], mask=keys[:, None] < n_ctx, other=0.0)
        acc = tl.dot(p, v, acc=acc * alpha[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        m_i = m_ij
    offs_n = tl.arange(0, BLOCK_N)
    for start in range(0, n_new, BLOCK_N):
        keys = start + offs_n
        k = tl.load(k_ptr + (n_ctx + keys[None, :]) * D + offs_d[:, None], mask=keys[None, :] < n_new, other=0.0)
        qk = tl.dot(q, k) * 0.25
        qk = tl.where((offs_m[:, None] >= keys[None, :]) & (keys[None, :] < n_new), qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        v = tl.load(v_ptr + (n_ctx + keys[:, None]) * D + offs_d[None, :], mask=keys[:, None] < n_new, other=0.0)
        acc = tl.dot(p, v, acc=acc * alpha[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        m_i = m_ij
    tl.store(out_ptr + offs_m[:, None] * D + offs_d[None, :], acc / l_i[:, None], mask=offs_m[:, None] < n_new)


n_ctx, n_new, D = 45, 50, 16
q = torch.randn(n_new, D, device=DEVICE)
k = torch.randn(n_ctx + n_new, D, device=DEVICE)
v = torch.randn(n_ctx + n_new, D, device=DEVICE)
out = torch.empty(n_new, D, device=DEVICE)
prefix_then_causal_kernel[(1,)](q, k, v, out, n_ctx, n_new, BLOCK_M=64, BLOCK_N=64, BLOCK_C=32, D=D, num_warps=2)
s = (q.cpu() @ k.cpu().T) * 0.25
allowed = torch.arange(n_ctx + n_new).reshape(1, -1) <= (n_ctx + torch.arange(n_new)).reshape(-1, 1)
ref = torch.softmax(torch.where(allowed, s, torch.full_like(s, float("-inf"))), dim=1) @ v.cpu()
torch.testing.assert_close(out.cpu(), ref, atol=1e-4, rtol=1e-4)
print("row statistics carried between tiles of 32 and 64 keys: match")
