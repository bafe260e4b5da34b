"""Idioms of linkedin/Liger-Kernel's Triton kernels (src/liger_kernel/ops/), in a kernel of ours: mlp.py makes its
TensorDescriptors with a dummy block shape ([1, 1, 1]) and lets each autotune Config's `pre_hook` set the real one
(`nargs["desc_x"].block_shape = [1, BLOCK_M, BLOCK_K]`) before the config runs. With several configs and nothing
timed (--bench off, --cpu), the first config that fits is picked; its pre_hook must run before that probe
compiles it, as Triton runs a config's pre_hook before each of its runs. fused_moe_kernels.py's prefix-sum kernel
assigns `offs` at one block shape under `if pid < E:` and at another under `elif pid == E:`, and reads it in neither
after the if: in Python each branch's `offs` is its own, which Triton accepts. Sizes off the block."""

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def set_block_shape(nargs):
    nargs["desc_x"].block_shape = [1, nargs["BLOCK_M"], nargs["BLOCK_N"]]
    nargs["desc_y"].block_shape = [1, nargs["BLOCK_M"], nargs["BLOCK_N"]]


@triton.autotune(
    configs=[triton.Config({"BLOCK_M": bm, "BLOCK_N": 32}, num_warps=4, pre_hook=set_block_shape) for bm in [16, 32]],
    key=["M", "N"],
)
@triton.jit
def scale_3d_kernel(desc_x, desc_y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(1)
    m0 = tl.program_id(0) * BLOCK_M
    for n0 in range(0, N, BLOCK_N):
        block = desc_x.load([b, m0, n0])  # [1, BLOCK_M, BLOCK_N]
        block = tl.reshape(block, [BLOCK_M, BLOCK_N]) * 2.0
        desc_y.store([b, m0, n0], tl.reshape(block, [1, BLOCK_M, BLOCK_N]))


x = torch.randn((3, 37, 44), device=DEVICE)  # rows of 176 bytes: strides 16-byte aligned, as descriptors need
y = torch.empty_like(x)
desc_x = TensorDescriptor.from_tensor(x, block_shape=[1, 1, 1])
desc_y = TensorDescriptor.from_tensor(y, block_shape=[1, 1, 1])
scale_3d_kernel[lambda meta: (triton.cdiv(37, meta["BLOCK_M"]), 3)](desc_x, desc_y, 37, 44)
torch.testing.assert_close(y, x * 2.0, atol=0, rtol=0)
print("Config(pre_hook=…) setting descriptor block shapes, untimed: match")


@triton.jit
def two_branch_offsets_kernel(X, Out, n, n_small, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    if pid < 1:
        for start in range(0, n, BLOCK_M):
            offs = start + tl.arange(0, BLOCK_M)
            tl.store(Out + offs, tl.load(X + offs, mask=offs < n) * 2.0, mask=offs < n)
    elif pid == 1:
        for start in tl.static_range(0, 8, BLOCK_N):
            offs = start + tl.arange(0, BLOCK_N)
            tl.store(Out + n + offs, tl.load(X + n + offs, mask=offs < n_small) + 1.0, mask=offs < n_small)


x = torch.randn(300 + 7, device=DEVICE)
out = torch.empty_like(x)
two_branch_offsets_kernel[(2,)](x, out, 300, 7, BLOCK_M=128, BLOCK_N=4)
torch.testing.assert_close(out, torch.cat([x[:300] * 2.0, x[300:] + 1.0]), atol=0, rtol=0)
print("a name assigned at two block shapes in exclusive branches, dead after them: match")


# kakaobrain/trident's layout: the kernel a staticmethod of a class, launched as Fill.forward[grid](…). Before: KL1104
# "no @triton.jit function named 'forward' (found: none)", then (db27dfb) KL1104 naming the class; now it runs
# (test/python/trident-idioms.py has the rest of trident's idioms).
class Fill:
    @staticmethod
    @triton.jit
    def forward(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, 1.0, mask=offs < n)


filled = torch.zeros(7, device=DEVICE)
Fill.forward[(1,)](filled, 5, BLOCK=8)
torch.testing.assert_close(filled, torch.tensor([1.0] * 5 + [0.0] * 2, device=DEVICE), atol=0, rtol=0)
print("a kernel inside a class: match")
