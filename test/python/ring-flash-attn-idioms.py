"""zhuzilin/ring-flash-attention's Triton kernels as published (test/python/ring_flash_attn_kit/triton_utils.py,
unchanged): flatten_varlen_lse and unflatten_varlen_lse (flatten_kernel, unflatten_kernel: per-sequence log-sum-exp
rows moved between the padded (batch, heads, max_seqlen) layout and the packed (heads, total_seqlen) one), checked as
the library's own test/test_triton_kernels.py checks them: equal to utils.py's torch versions (copied unchanged too,
with its @torch.jit.script functions and its torch.distributed RingComm), sequences of 15, 141 and 373 over 5 heads."""

import torch
from ring_flash_attn_kit.utils import flatten_varlen_lse, unflatten_varlen_lse
from ring_flash_attn_kit.triton_utils import (
    flatten_varlen_lse as triton_flatten_varlen_lse,
    unflatten_varlen_lse as triton_unflatten_varlen_lse,
)

# The library's test/test_triton_kernels.py main(), its asserts printed as match / differ.
device = torch.device("cuda:0")
torch.manual_seed(0)
cu_seqlens = [0, 15, 156, 529]
cu_seqlens_tensor = torch.tensor(cu_seqlens, dtype=torch.int32, device=device)
batch_size = len(cu_seqlens) - 1
max_seqlen = (cu_seqlens_tensor[1:] - cu_seqlens_tensor[:-1]).max().item()
n_head = 5

lse = torch.randn((batch_size, n_head, max_seqlen), dtype=torch.float32, device=device)
flatten_lse = flatten_varlen_lse(lse, cu_seqlens_tensor)
triton_flatten_lse = triton_flatten_varlen_lse(lse, cu_seqlens_tensor)
assert triton_flatten_lse.shape == (n_head, 529)
print("flatten_varlen_lse:", "match" if torch.all(flatten_lse == triton_flatten_lse) else "differ")

flatten_lse = flatten_lse.transpose(-2, -1).unsqueeze(dim=-1)
triton_flatten_lse = triton_flatten_lse.transpose(-2, -1).unsqueeze(dim=-1)

unflatten_lse = unflatten_varlen_lse(flatten_lse, cu_seqlens_tensor, max_seqlen)
triton_unflatten_lse = triton_unflatten_varlen_lse(triton_flatten_lse, cu_seqlens_tensor, max_seqlen)
same = all(
    bool(torch.all(unflatten_lse[i, :, : cu_seqlens[i + 1] - cu_seqlens[i]] == triton_unflatten_lse[i, :, : cu_seqlens[i + 1] - cu_seqlens[i]]))
    for i in range(batch_size)
)
print("unflatten_varlen_lse:", "match" if same else "differ")
