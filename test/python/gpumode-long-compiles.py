"""gpu-mode/lectures' Triton code as published (test/python/gpumode_kit/, lectures at 7cb40f67, unchanged) that lavapipe
takes 4 to 9 s a kernel to compile (--cpu in python-library-gpumode.test.ts), against references written from the
ops' definitions in Kernel Lab's torch: lecture 14's triton_util.py 2-D offset and mask helpers in a matmul of the
notebook's shape (naive_matmul_k, its loads masked); lecture 18's fused add-mul-relu kernels through their entry points
(the inductor-generated one, with its bias of 8 columns fixed in the kernel, and the "cleaner" one), its
add-mul-activation kernel with relu picked, the inductor kernel fixed at 128 x 512 launched with inductor's grid(),
and torch.compile's output module for the lecture's two-layer LoRA MLP (torch_compile_generated_triton.py: torch 2.2's
async_compile.triton, its call(args) on the lecture's 7 x 16 input). Sizes off the blocks wherever the kernel takes
one."""

import torch
import triton
import triton.language as tl

import gpumode_kit.lecture_014.triton_util as tu
from gpumode_kit.lecture_018.kernels.triton_fused_add_mul_relu import (
    fused_add_mul_relu_torch, fused_add_mul_relu_cleaner_torch,
)
from gpumode_kit.lecture_018.kernels.triton_fused_add_mul_activation import fused_add_mul_activation_kernel
from gpumode_kit.lecture_018.kernels.triton_pointwise_add_relu_fused import pointwise_add_relu_fusion_512, grid
from gpumode_kit.lecture_018 import torch_compile_generated_triton as compiled_mlp

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def report(name, got, ref, atol=1e-5):
    got, ref = got.cpu(), ref.cpu()
    same = tuple(got.shape) == tuple(ref.shape) and torch.allclose(got, ref, atol=atol, rtol=1e-5)
    print(name + ":", "match" if same else (f"differ by {(got - ref).abs().max().item()}" if got.shape == ref.shape
                                            else f"shape {list(got.shape)}, not {list(ref.shape)}"))


@triton.jit
def masked_matmul_k(a_ptr, b_ptr, c_ptr, m, n, k, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                    bm: tl.constexpr, bn: tl.constexpr, bk: tl.constexpr):
    # The notebook's naive_matmul_k through triton_util's helpers, its loads masked (the notebook's aren't: "todo
    # umer: don't we need mask when loading a & b?"), so that m, n and k need not be multiples of the blocks.
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = tu.get_1d_offest(size=bm, n_prev_chunks=pid_m)
    rn = tu.get_1d_offest(size=bn, n_prev_chunks=pid_n)
    acc = tl.zeros((bm, bn), dtype=tl.float32)
    for chunk in range(0, tl.cdiv(k, bk)):
        rk = tu.get_1d_offest(size=bk, n_prev_chunks=chunk)
        a = tl.load(a_ptr + tu.get_2d_offset(rm, rk, stride_am, stride_ak), mask=tu.get_2d_mask(rm, rk, m, k), other=0.0)
        b = tl.load(b_ptr + tu.get_2d_offset(rk, rn, stride_bk, stride_bn), mask=tu.get_2d_mask(rk, rn, k, n), other=0.0)
        acc += tl.dot(a, b, allow_tf32=False)
    tl.store(c_ptr + tu.get_2d_offset(rm, rn, stride_cm, stride_cn), acc, mask=tu.get_2d_mask(rm, rn, m, n))


a = torch.randn((37, 50), device=DEVICE)
b = torch.randn((50, 29), device=DEVICE)
c = torch.empty((37, 29), device=DEVICE)
masked_matmul_k[(tu.cdiv(37, 16), tu.cdiv(29, 16))](a, b, c, 37, 29, 50, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                                    c.stride(0), c.stride(1), bm=16, bn=16, bk=16)
report("triton_util get_2d_offset / get_2d_mask (a matmul)", c, a.cpu() @ b.cpu(), atol=1e-4)

# Lecture 18: in_out = act(in_out + 0.5 * in + bias), the bias broadcast along rows; written in place.
for rows, cols, entry in [(130, 8, fused_add_mul_relu_torch), (150, 7, fused_add_mul_relu_cleaner_torch)]:
    io, inp, bias = torch.randn((rows, cols), device=DEVICE), torch.randn((rows, cols), device=DEVICE), torch.randn((1, cols), device=DEVICE)
    ref = torch.clamp(io.cpu() + 0.5 * inp.cpu() + bias.cpu(), min=0.0)
    report(f"{entry.__name__} ({rows} x {cols})", entry(io, bias, inp), ref)

io, inp, bias = torch.randn((50, 21), device=DEVICE), torch.randn((50, 21), device=DEVICE), torch.randn((1, 21), device=DEVICE)
ref = torch.clamp(io.cpu() + 2.5 * inp.cpu() + bias.cpu(), min=0.0)
fused_add_mul_activation_kernel[lambda meta: (triton.cdiv(io.numel(), meta["BLOCK_SIZE"]),)](
    io, bias, inp, bias.numel(), io.numel(), multiplier=2.5, activation="relu", BLOCK_SIZE=512)
report("fused_add_mul_activation_kernel (relu, multiplier 2.5, 50 x 21)", io, ref)

X, Y = torch.randn((128, 512), device=DEVICE), torch.randn((512,), device=DEVICE)
ref = torch.clamp(X.cpu() + Y.cpu(), min=0.0)
pointwise_add_relu_fusion_512[grid(65536)](X, Y, 512)
report("pointwise_add_relu_fusion_512 (grid(65536))", X, ref)


# The compiled module's call(args): out1 = relu(X W1^T + b1 + 0.5 (X A1) B1), out = sigmoid(out1 W2^T + b2 + 0.5 (out1 A2) B2).
W1, b1, W2, b2 = torch.randn((8, 16)), torch.randn((8,)), torch.randn((4, 8)), torch.randn((4,))
A1, B1, A2, B2, X = torch.randn((16, 5)), torch.randn((5, 8)), torch.randn((8, 5)), torch.randn((5, 4)), torch.randn((7, 16))
out1 = torch.clamp(X @ W1.t() + b1 + 0.5 * ((X @ A1) @ B1), min=0.0)
ref = torch.sigmoid(out1 @ W2.t() + b2 + 0.5 * ((out1 @ A2) @ B2))
outputs = compiled_mlp.call([t.to(DEVICE) for t in (W1, b1, W2, b2, A1, B1, A2, B2, X)])
report("torch_compile_generated_triton call(args) (two fused kernels, 7 x 16)", outputs[0], ref, atol=1e-4)
report("torch_compile_generated_triton call(args) (its saved first layer)", outputs[2], out1, atol=1e-4)
