"""Idioms of the flash-attention backward kernels in bf16 (FlagAttention's flag_attn/flash.py `_bwd_kv_kernel`,
applied-ai's torch_compile/flash_backward.py `_bwd_kernel_dk_dv`), in a kernel of ours written the way they write it:
a 64 x 64 block of probabilities recomputed in f32 from `tl.dot(q, tl.trans(k))`, then `dv += tl.dot(tl.trans(p).to(
input_dtype), do)` (a conversion of a transposed block handed to tl.dot), `dp = tl.dot(do, tl.trans(v))` and
`dk += tl.dot(tl.trans(ds), q)` with `ds` a bf16 block (tl.dot widens it to f32: again a conversion of a transpose).
Until the conversion of a transpose became the transpose of the conversion (src/semantics/builder.ts), each such
operand was a cast of a tl.trans, and the transpose was staged in workgroup memory of its own (a 64 x 64 f32 array)
besides the dot's tiles: 19 712 bytes, KL2016 against --cpu's (WebGPU's default) 16 384, where the same kernel in f32
fits. Rows 100 over blocks of 64, keys 50 of a 64 block (masked), head 16; bf16 and f16; outputs start as NaN;
references in f32 from the same inputs, with p and ds rounded to the input dtype as the kernel does."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def dkdv_kernel(Q, K, V, DO, Delta, DK, DV, M, N, scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    input_dtype = Q.dtype.element_ty
    offs_m_base = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, D)
    mask_n = offs_n < N
    k = tl.load(K + offs_n[:, None] * D + offs_k[None, :], mask=mask_n[:, None])
    v = tl.load(V + offs_n[:, None] * D + offs_k[None, :], mask=mask_n[:, None])
    dk = tl.zeros([BLOCK_N, D], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, D], dtype=tl.float32)
    for start_m in range(0, M, BLOCK_M):
        offs_m = start_m + offs_m_base
        mask_m = offs_m < M
        q = tl.load(Q + offs_m[:, None] * D + offs_k[None, :], mask=mask_m[:, None])
        do = tl.load(DO + offs_m[:, None] * D + offs_k[None, :], mask=mask_m[:, None])
        s = tl.dot(q, tl.trans(k))
        p = tl.math.exp2(s * scale)
        p = tl.where(mask_m[:, None] & mask_n[None, :], p, 0.0)
        dv += tl.dot(tl.trans(p).to(input_dtype), do)
        delta = tl.load(Delta + offs_m, mask=mask_m, other=0.0)
        dp = tl.dot(do, tl.trans(v))
        ds = p * (dp - delta[:, None])
        ds = ds.to(input_dtype)
        dk += tl.dot(tl.trans(ds), q)
    tl.store(DK + offs_n[:, None] * D + offs_k[None, :], dk.to(input_dtype), mask=mask_n[:, None])
    tl.store(DV + offs_n[:, None] * D + offs_k[None, :], dv.to(input_dtype), mask=mask_n[:, None])


def check(dtype):
    torch.manual_seed(0)
    M, N, D, scale = 100, 50, 16, 0.1
    q, do = (torch.randn(M, D).to(dtype) for _ in range(2))
    k, v = (torch.randn(N, D).to(dtype) for _ in range(2))
    delta = torch.randn(M)
    dk = torch.full((N, D), float("nan"), dtype=dtype, device=DEVICE)
    dv = torch.full((N, D), float("nan"), dtype=dtype, device=DEVICE)
    dev = [t.to(DEVICE) for t in (q, k, v, do, delta)]
    dkdv_kernel[(1,)](*dev, dk, dv, M, N, scale, BLOCK_M=64, BLOCK_N=64, D=D)
    p = torch.exp2((q.float() @ k.float().T) * scale)
    ds = p * (do.float() @ v.float().T - delta[:, None])
    want_dv = p.to(dtype).float().T @ do.float()
    want_dk = ds.to(dtype).float().T @ q.float()
    for got, want, what in ((dv, want_dv, "dv"), (dk, want_dk, "dk")):
        big = want.abs().max().item()
        torch.testing.assert_close(got.cpu().float(), want, atol=2e-2 * big, rtol=2e-2)
    print(f"flash backward dk/dv, tl.dot(tl.trans(p).to(input_dtype), do) and tl.dot(tl.trans(ds), q) in {str(dtype).split('.')[-1]}: {N}x{D} over {M} rows match")


check(torch.bfloat16)
check(torch.float16)
