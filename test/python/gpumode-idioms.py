"""gpu-mode/lectures' Triton code as published (test/python/gpumode_kit/, lectures at 7cb40f67, unchanged), the first
kernels a learner ports, through their own entry points where the lecture has one, against references written from
the ops' definitions in Kernel Lab's torch: lecture 14's triton_util.py (its host helpers, and its @triton.jit offset
and mask helpers called from a kernel of the notebook's shape: the notebook's own kernels are in a .ipynb, not
copied), lecture 18's add-mul-activation kernel through its entry point (sigmoid picked by a string constexpr, a
float constexpr multiplier, written in place), lecture 29's vector_add (its module imports triton.tools.disasm and
torch.profiler). gpumode-long-compiles.py has the rest of lecture 18 and a matmul through triton_util (--cpu in the
test: lavapipe takes 4 to 9 s to compile each); lecture 1's triton_square.py is a script and runs whole
(python-library-gpumode.test.ts). Sizes off the blocks."""

import torch
import triton
import triton.language as tl

import gpumode_kit.lecture_014.triton_util as tu
from gpumode_kit.lecture_018.kernels.triton_fused_add_mul_activation import fused_add_mul_activation_torch
from gpumode_kit.lecture_029.vector_add import add_kernel

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def report(name, got, ref, atol=1e-5):
    got, ref = got.cpu(), ref.cpu()
    same = tuple(got.shape) == tuple(ref.shape) and torch.allclose(got, ref, atol=atol, rtol=1e-5)
    print(name + ":", "match" if same else (f"differ by {(got - ref).abs().max().item()}" if got.shape == ref.shape
                                            else f"shape {list(got.shape)}, not {list(ref.shape)}"))


# Lecture 14: the host helpers (the module asserts its own at import) and the kernel helpers.
x = torch.randn((37, 50), device=DEVICE)
tu.check_tensors_gpu_ready(x)
ok = tu.cdiv(37, 16) == 3 and tu.test_pid_conds(">1,=0", [2], [0]) and not tu.test_pid_conds("<2", [2])
print("triton_util host helpers:", "match" if ok else "differ")


@triton.jit
def copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):
    offs = tu.get_1d_offest(bs, tl.program_id(0))
    mask = tu.get_1d_mask(offs, n)
    tl.store(z_ptr + offs, tl.load(x_ptr + offs, mask), mask)


z = torch.zeros_like(x)
copy_k[(tu.cdiv(x.numel(), 256),)](x, z, x.numel(), 256)
report("triton_util get_1d_offest / get_1d_mask (a copy)", z, x)

# Lecture 18: in_out = sigmoid(in_out + 0.5 * in + bias), the bias broadcast along rows; written in place.
io, inp, bias = torch.randn((100, 21), device=DEVICE), torch.randn((100, 21), device=DEVICE), torch.randn((1, 21), device=DEVICE)
ref = torch.sigmoid(io.cpu() + 0.5 * inp.cpu() + bias.cpu())
report("fused_add_mul_activation_torch (sigmoid, 100 x 21)", fused_add_mul_activation_torch(io, bias, inp), ref)

# Lecture 29: output = x + y, masked at 1000 elements with blocks of 256.
x, y = torch.rand(1000, device=DEVICE), torch.rand(1000, device=DEVICE)
out = torch.empty_like(x)
add_kernel[lambda meta: (triton.cdiv(1000, meta["BLOCK_SIZE"]),)](x, y, out, 1000, BLOCK_SIZE=256)
report("vector_add add_kernel (1000, blocks of 256)", out, x.cpu() + y.cpu())
