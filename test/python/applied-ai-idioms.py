"""Idioms of pytorch-labs/applied-ai's Triton kernels and host code (kernels/triton/), in kernels of ours:
a name assigned before a loop and reassigned in it from itself, first thing in the loop body
(stay_attention.py: `si = -1`, then `si = tl.where(si == n - 1, 0, si + 1)` each trip, and a store
under `if si == n - 1:`): carried from trip to trip, not declared afresh in the loop;
an autograd.Function's forward that views its input (`x = x.view(-1, n)`, grad disabled there) and
saves for backward only `if x.requires_grad:` (fused_softmax/softmax.py): the view of an input that
requires grad requires grad, as in torch; a launch's result, the compiled kernel, as Triton gives it back
(gptq/a100_qlinear.py: `k = kernel[grid](…)`, then `k.n_regs`, `k.n_spills`, `k.shared`, and
`k.asm['ttir']`, which Kernel Lab has no such stage for); a name tl doesn't have (`tl.float`) in a
constexpr branch the launch leaves out (gptq/h100_qlinear.py's `if fp8_fast_accum:`), not compiled, as
in Triton. From torch_compile/flash_backward.py (AMD's flash attention): a string a helper passes on to
tl.load's padding_option (`load_fn(bp, True, False, "zero")`); a mask in min() and compared with 0
(`masked_blocks = padded_block_k`, `min(masked_blocks, n)`, `if masked_blocks > 0:`); a block pointer's
`.type.element_ty`; a name first assigned in an if nested in a constexpr if and assigned again after it
(`O_block_ptr`); a torch.library.custom_op with register_autograd called on tensors that require grad.
Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def round_robin_kernel(X, Out, n_tiles, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    si = -1
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for _ in range(0, 2 * n_tiles):
        si = tl.where(si == n_tiles - 1, 0, si + 1)
        acc += tl.load(X + pid * n_tiles * n + si * n + offs, mask=offs < n, other=0.0)
        if si == n_tiles - 1:
            tl.store(Out + pid * n + offs, acc, mask=offs < n)
            acc = tl.zeros([BLOCK], dtype=tl.float32)


n_tiles, rows = 3, 5
x = torch.randn((rows, n_tiles, 13), device=DEVICE)
out = torch.full((rows, 13), 7.0, device=DEVICE)
round_robin_kernel[(rows,)](x, out, n_tiles, 13, BLOCK=16)
torch.testing.assert_close(out, x.sum(1), atol=1e-5, rtol=1e-5)
print("a name reassigned from itself first thing in a loop, carried: match")


@triton.jit
def scale_kernel(Out, X, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    v = tl.load(X + row * n + offs, mask=offs < n, other=0.0)
    tl.store(Out + row * n + offs, 2.0 * v, mask=offs < n)


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        shape = x.shape
        x = x.view(-1, shape[-1])
        out = torch.empty_like(x)
        scale_kernel[(x.shape[0],)](out, x, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        if x.requires_grad:
            ctx.save_for_backward(out)
        return out.view(*shape)

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return 2.0 * g


x = torch.randn((2, 3, 37), device=DEVICE, requires_grad=True)
with torch.no_grad():
    assert x.view(-1, 37).requires_grad and x[0].requires_grad and not (x * 2).requires_grad
y = Double.apply(x)
y.backward(torch.ones_like(y))
torch.testing.assert_close(x.grad, torch.full((2, 3, 37), 2.0, device=DEVICE))
print("a view of an input that requires grad, made in forward, requires grad: match")

out = torch.zeros((5, 37), device=DEVICE)
src = torch.randn((5, 37), device=DEVICE)
k = scale_kernel[(5,)](out, src, 37, BLOCK=64)
assert (k.n_regs, k.n_spills) == (32, 0) and k.shared >= 1 and k.metadata.shared >= 1, (k.n_regs, k.n_spills, k.shared)
try:
    k.asm["ptx"]
    raise AssertionError("asm['ptx'] should say Kernel Lab compiles to WGSL")
except KeyError as e:
    assert "WGSL" in str(e), str(e)
torch.testing.assert_close(out, 2.0 * src)
print("a launch gives back the compiled kernel, its asm the WGSL only: match")


@triton.jit
def maybe_fp8_kernel(X, n, FAST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.0)
    if FAST:
        x = x.to(tl.float)
    tl.store(X + offs, x + 1.0, mask=offs < n)


x = torch.randn((37,), device=DEVICE)
want = x + 1.0
maybe_fp8_kernel[(1,)](x, 37, FAST=False, BLOCK=64)
torch.testing.assert_close(x, want)
print("tl.float in a constexpr branch left out: match")


@triton.jit
def load_fn(block_ptr, first, second, pad):
    if first and second:
        tensor = tl.load(block_ptr, boundary_check=(0, 1), padding_option=pad)
    elif first:
        tensor = tl.load(block_ptr, boundary_check=(0,), padding_option=pad)
    else:
        tensor = tl.load(block_ptr)
    return tensor


@triton.jit
def amd_idioms_kernel(X, Out, Count, n, n_blocks, CAUSAL: tl.constexpr, B: tl.constexpr):
    if CAUSAL:
        if n_blocks <= 0:
            out_bp = tl.make_block_ptr(base=Out, shape=(n, 16), strides=(16, 1), offsets=(0, 0), block_shape=(B, 16), order=(1, 0))
            tl.store(out_bp, tl.zeros([B, 16], dtype=tl.float32), boundary_check=(0, 1))
            return
    bp = tl.make_block_ptr(base=X, shape=(n, 16), strides=(16, 1), offsets=(0, 0), block_shape=(B, 16), order=(1, 0))
    x = load_fn(bp, True, False, "zero")
    x = (x * 2.0).to(bp.type.element_ty)
    padded = n != B
    masked = padded
    masked = min(masked, n_blocks)
    if masked > 0:
        tl.store(Count, masked)
    out_bp = tl.make_block_ptr(base=Out, shape=(n, 16), strides=(16, 1), offsets=(0, 0), block_shape=(B, 16), order=(1, 0))
    tl.store(out_bp, x, boundary_check=(0, 1))


x = torch.randn((10, 16), device=DEVICE)
out = torch.full((10, 16), 7.0, device=DEVICE)
count = torch.zeros((1,), dtype=torch.int32, device=DEVICE)
amd_idioms_kernel[(1,)](x, out, count, 10, 3, CAUSAL=True, B=16)
torch.testing.assert_close(out, 2.0 * x)
assert count.item() == 1, count.item()
amd_idioms_kernel[(1,)](x, out, count, 10, 0, CAUSAL=True, B=16)
assert out.abs().max().item() == 0.0
print("a string through a helper to padding_option, a mask in min() and > 0, a block pointer's type, a name first assigned in a nested if: match")


@torch.library.custom_op("kl_test::triple", mutates_args=())
def triple(a: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(a)
    scale_kernel[(a.shape[0],)](out, a, a.shape[1], BLOCK=64)
    return out + a


def triple_setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])


def triple_backward(ctx, g):
    return 3.0 * g


triple.register_autograd(triple_backward, setup_context=triple_setup)
a = torch.randn((3, 37), device=DEVICE, requires_grad=True)
y = triple(a)
y.backward(torch.ones_like(y))
torch.testing.assert_close(a.grad, torch.full((3, 37), 3.0, device=DEVICE))
print("a custom op's registered backward: match")
