"""Idioms of ModelTC/lightllm's Triton kernels (lightllm/models/llama/triton_kernel/), in kernels of ours:
two masks multiplied to make a 2-D mask (silu_and_mul.py: `mask=(n < size_n)[None, :] * (m < size_m)[:, None]`),
which Triton keeps an int1, the and of the two; `torch.cuda.is_current_stream_capturing()` on the host
(gqa_flash_decoding_vsm.py picks its config by it), False where there are no CUDA graphs. Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def masked_copy_kernel(X, Out, size_m, size_n, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    ptrs = offs_m[:, None] * stride_m + offs_n[None, :]
    v = tl.load(X + ptrs, mask=(offs_n < size_n)[None, :] * (offs_m < size_m)[:, None], other=0.0)
    tl.store(Out + ptrs, v + 1.0, mask=(offs_n < size_n)[None, :] * (offs_m < size_m)[:, None])


x = torch.randn((37, 21), device=DEVICE)
out = torch.empty_like(x)
masked_copy_kernel[(triton.cdiv(37, 16), triton.cdiv(21, 16))](x, out, 37, 21, x.stride(0), BLOCK_M=16, BLOCK_N=16)
torch.testing.assert_close(out, x + 1.0, atol=1e-6, rtol=1e-6)
print("two masks multiplied, a 2-D mask: match")


# gqa_flash_decoding_vsm.py: with no CUDA graph being captured, the average length picks the config.
avg = 37 if torch.cuda.is_current_stream_capturing() else 21
assert avg == 21
print("torch.cuda.is_current_stream_capturing(): False: match")
