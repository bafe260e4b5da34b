"""apple/ml-cross-entropy (Cut Cross-Entropy) as published, in part: its indexed_dot.py kernel here and tl_autotune.py's
autotune wrapper in cce_kit/, copied unchanged from https://github.com/apple/ml-cross-entropy at d42911f (cut_cross_entropy/,
Apple Sample Code License, Copyright (C) 2024 Apple Inc.), only the config list is ours (blocks of 32 × 64: the library's
are 128 and 256, past --cpu's 16 KiB of workgroup memory). What the package does at import, and failed here:
vocab_parallel/utils.py takes `Self` from typing_extensions; utils.py compares importlib.metadata.version("torch")
(and "triton") with packaging; _cce_autotune reads `fn.arg_names` of the triton.heuristics object it wraps, as
Triton's Heuristics keeps them; linear_cross_entropy asks torch.cuda.is_bf16_supported(). Then cce_lse_forward.py and
cce_backward.py as published (cce_kit/, configs of ours), forward and backward against torch. Sizes off the block."""

import torch
import triton
import triton.language as tl
from triton import Config
from typing_extensions import Self

from cce_kit.tl_autotune import _cce_autotune, is_package_greater_or_equal, is_triton_greater_or_equal_3_2_0

DEVICE = triton.runtime.driver.active.get_active_torch_device()


print("versions:", is_package_greater_or_equal("torch", "2.5"), is_triton_greater_or_equal_3_2_0(), Self is not None, torch.cuda.is_bf16_supported())


def b_bin_fn(b: int) -> int:
    if b >= 1024:
        return 1024
    elif b <= 128:
        return 128
    else:
        return 512


def _indexed_neg_dot_forward_kernel(
    E,
    C,
    Inds,
    Bias,
    Valids,
    Out,
    B,
    D,
    V,
    BMax,
    stride_eb,
    stride_ed,
    stride_cv,
    stride_cd,
    stride_ib,
    stride_biasv,
    stride_vb,
    shift,
    B_BIN,
    BLOCK_B: tl.constexpr,
    BLOCK_D: tl.constexpr,
    GROUP_B: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    HAS_VALIDS: tl.constexpr,
    EVEN_D: tl.constexpr,
    HAS_SHIFT: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_b_chunks = tl.cdiv(B, BLOCK_B)
    num_d_chunks = tl.cdiv(D, BLOCK_D)
    num_d_in_group = GROUP_B * num_d_chunks
    group_id = pid // num_d_in_group
    first_pid_b = group_id * GROUP_B
    group_size_b = min(num_b_chunks - first_pid_b, GROUP_B)
    pid_b = (first_pid_b + ((pid % num_d_in_group) % group_size_b)).to(tl.int64)
    pid_d = ((pid % num_d_in_group) // group_size_b).to(tl.int64)

    offs_b = (tl.arange(0, BLOCK_B) + pid_b * BLOCK_B).to(tl.int64)
    if HAS_VALIDS:
        offs_b = tl.load(Valids + stride_vb * offs_b, mask=offs_b < B, other=BMax).to(tl.int64)

    offs_d = (tl.arange(0, BLOCK_D) + pid_d * BLOCK_D).to(tl.int64)
    e_ptrs = E + (stride_eb * offs_b[:, None] + stride_ed * offs_d[None, :])

    e_mask = offs_b[:, None] < BMax
    if not EVEN_D:
        e_mask = e_mask & (offs_d[None, :] < D)

    e = tl.load(e_ptrs, mask=e_mask, other=0.0)

    if HAS_SHIFT:
        offs_b = offs_b + shift

    inds = tl.load(Inds + stride_ib * offs_b, mask=offs_b < BMax, other=V)

    c_ptrs = C + (inds[:, None] * stride_cv + offs_d[None, :] * stride_cd)

    c_mask = inds[:, None] < V
    if not EVEN_D:
        c_mask = c_mask & (offs_d[None, :] < D)

    c = tl.load(c_ptrs, mask=c_mask, other=0.0)

    dot = e.to(tl.float32) * c.to(tl.float32)
    neg_dot = -tl.sum(dot, 1)

    if HAS_BIAS:
        bias = tl.load(Bias + inds * stride_biasv, mask=inds < V, other=0.0)
        bias = bias.to(tl.float32)
        neg_dot -= bias

    offs_b = (tl.arange(0, BLOCK_B) + pid_b * BLOCK_B).to(tl.int64)
    out_ptrs = Out + offs_b
    tl.atomic_add(out_ptrs, neg_dot.to(out_ptrs.dtype.element_ty), mask=offs_b < B)


_indexed_neg_dot_forward_kernel = triton.jit(_indexed_neg_dot_forward_kernel)
_indexed_neg_dot_forward_kernel = triton.heuristics(  # type: ignore
    {
        "EVEN_D": lambda args: args["D"] % args["BLOCK_D"] == 0,
        "HAS_BIAS": lambda args: args["Bias"] is not None,
        "HAS_VALIDS": lambda args: args["Valids"] is not None,
        "HAS_SHIFT": lambda args: args["shift"] != 0,
        "GROUP_B": lambda args: 8,
    }
)(_indexed_neg_dot_forward_kernel)
_indexed_neg_dot_forward_kernel = _cce_autotune(
    configs=[Config(dict(BLOCK_B=32, BLOCK_D=64), num_warps=4), Config(dict(BLOCK_B=16, BLOCK_D=64), num_warps=4)],
    key=["D", "B_BIN"],
    reset_to_zero=["Out"],
)(_indexed_neg_dot_forward_kernel)


torch.manual_seed(0)
B, V, D = 37, 100, 40  # one D chunk: the kernel subtracts the bias once per chunk of D, as published
e = torch.randn((B, D), device=DEVICE) * 0.5
c = torch.randn((V, D), device=DEVICE) * 0.5
inds = torch.randint(0, V, (B,), device=DEVICE)
bias = torch.randn((V,), device=DEVICE)
for with_bias in (False, True):
    b = bias if with_bias else None
    out = e.new_zeros((B,), dtype=torch.float32)
    grid = lambda META: (triton.cdiv(B, META["BLOCK_B"]) * triton.cdiv(D, META["BLOCK_D"]),)
    _indexed_neg_dot_forward_kernel[grid](
        e, c, inds, b, None, out, B, D, V, B, e.stride(0), e.stride(1), c.stride(0), c.stride(1), inds.stride(0),
        1 if b is None else b.stride(0), 1, shift=0, B_BIN=b_bin_fn(B),
    )
    ref = -(e * c[inds]).sum(-1) - (bias[inds] if with_bias else 0)
    print(f"indexed neg dot, bias {with_bias}:", "match" if torch.allclose(out, ref, atol=1e-4, rtol=1e-4) else f"differ by {(out - ref).abs().max().item()}")

# cce_lse_forward.py and cce_backward.py as published (test/python/cce_kit/): the LSE over the vocabulary in blocks,
# merged across programs under a uint32 spin lock (tl.atomic_cas / atomic_xchg) with tl_logaddexp's libdevice.log1p,
# and the backward's tl.reduce(x, None, tl_and_reduce_fn) (every axis; the combine function imported by name), helpers
# given `dEC + … if KAHAN_E else None`, dot precision from torch.get_float32_matmul_precision().
from cce_kit.cce_backward import cce_backward_kernel  # noqa: E402
from cce_kit.cce_lse_forward import cce_lse_forward_kernel  # noqa: E402
from cce_kit.tl_autotune import TensorInfo  # noqa: E402

B, V, D = 37, 100, 40
e = torch.randn((B, D), device=DEVICE) * 0.5
c = torch.randn((V, D), device=DEVICE) * 0.5
targets = torch.randint(0, V, (B,), device=DEVICE)
logits = e @ c.T
lse = cce_lse_forward_kernel(e, c)
print("lse forward:", "match" if torch.allclose(lse, torch.logsumexp(logits, dim=-1), atol=1e-5, rtol=1e-5) else "differ")
do = torch.full((B,), 1.0 / B, device=DEVICE)  # the mean's gradient
de, dc, _ = cce_backward_kernel(
    do, None, e, TensorInfo(e.dtype, True), c, TensorInfo(c.dtype, True), None, None, lse, None, None,
    torch.finfo(torch.float32).eps / 32, targets=targets,  # filter_eps as its "auto": blocks of tiny gradients skipped
)
grad = torch.softmax(logits, dim=-1) - (torch.arange(V, device=DEVICE)[None, :] == targets[:, None]).float()
grad = grad / B
print("backward dE:", "match" if torch.allclose(de, grad @ c, atol=1e-5, rtol=1e-4) else f"differ by {(de - grad @ c).abs().max().item()}")
print("backward dC:", "match" if torch.allclose(dc, grad.T @ e, atol=1e-5, rtol=1e-4) else f"differ by {(dc - grad.T @ e).abs().max().item()}")
