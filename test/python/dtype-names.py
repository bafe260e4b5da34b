"""tl.dtype(name) as kernel libraries call it: FlagGems' topk makes the unsigned dtype of a float's width from an
f-string of a constexpr (`tl.dtype(f"uint{x_nbits}")`), its cumsum the accumulator's from a string constexpr
(`tl.zeros(…, dtype=tl.dtype(DTYPE))`, DTYPE "fp32"); Triton's short names (fp32, bf16) and its tl.* spellings."""

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def sign_bits(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    x_nbits: tl.constexpr = X.dtype.element_ty.primitive_bitwidth
    x_utype = tl.dtype(f"uint{x_nbits}")
    tl.static_assert(x_utype == tl.uint32)
    bits = x.to(x_utype, bitcast=True)
    tl.store(Y + offs, (bits >> (x_nbits - 1)).to(tl.dtype("int32")), mask=mask)


@triton.jit
def running_sum(X, Y, n, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.dtype(DTYPE))
    for start in range(0, n, BLOCK):
        acc += tl.load(X + start + offs, mask=start + offs < n, other=0.0).to(tl.dtype(DTYPE))
    tl.store(Y, tl.sum(acc, 0))


x = torch.randn(1000, device=DEVICE)
y = torch.full((1000,), -7, dtype=torch.int32, device=DEVICE)
sign_bits[(triton.cdiv(1000, 256),)](x, y, 1000, BLOCK=256)
print("tl.dtype(f\"uint{x_nbits}\"):", "match" if torch.equal(y, (x < 0).int()) else "differ")

total = torch.full((1,), float("nan"), device=DEVICE)
running_sum[(1,)](x, total, 1000, DTYPE="fp32", BLOCK=128)
print("tl.dtype(DTYPE) of a string constexpr:", "match" if abs(total.item() - x.sum().item()) < 1e-3 else f"differ {total.item()}")
