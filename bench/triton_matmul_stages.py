"""What asynchronous copies are worth to Triton's float32 matmul on this GPU (bench/NOTES.md §18).

Triton tutorial 03's kernel (bench/torch_bench.py's matmul_kernel, IEEE float32 dots, no TF32) at
fixed block shapes, each with num_stages 1 … 4. With num_stages >= 2 Triton stages the next tiles
into shared memory with asynchronous copies (cp.async on Hopper) while the current ones are
multiplied; with num_stages = 1 every k step loads through registers and waits, which is what a
WGSL kernel can do (WGSL has no asynchronous copy into workgroup memory). So the num_stages = 1
rows are Triton held to WGSL's means, next to Kernel Lab's figures for the same shapes.

    python3 bench/triton_matmul_stages.py [--out FILE]
"""
import argparse
import json

import torch
import triton

from torch_bench import bench, matmul_kernel, rel_err

torch.backends.cuda.matmul.allow_tf32 = False

SHAPES = [(128, 128, 16, 8), (128, 128, 32, 8), (64, 128, 32, 4), (128, 64, 32, 4), (128, 256, 16, 8)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out")
    args = p.parse_args()
    kernel = matmul_kernel.fn  # the jitted kernel under the autotuner
    rows = []
    for size in (1024, 4096):
        a = torch.randn(size, size, device="cuda")
        b = torch.randn(size, size, device="cuda")
        ref = a.double() @ b.double()
        c = torch.empty(size, size, device="cuda")
        flops = 2 * size ** 3
        t = bench(lambda: torch.matmul(a, b, out=c))
        print(f"matmul-{size}  torch.matmul fp32  {t:.4f} ms  {flops / t / 1e9:.2f} TFLOP/s", flush=True)
        rows.append({"size": size, "variant": "torch.matmul fp32", "ms": t, "tflops": flops / t / 1e9})
        for bm, bn, bk, warps in SHAPES:
            for stages in (1, 2, 3, 4):
                grid = (triton.cdiv(size, bm) * triton.cdiv(size, bn),)
                run = lambda: kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                           c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                                           num_warps=warps, num_stages=stages)
                variant = f"{bm}x{bn}x{bk} w{warps} stages={stages}"
                try:
                    c.fill_(float("nan"))
                    run()
                    err = rel_err(c, ref)
                    t = bench(run)
                except Exception as e:  # a shape that does not fit shared memory at this depth
                    print(f"matmul-{size}  {variant}: {type(e).__name__}: {str(e)[:120]}", flush=True)
                    continue
                ok = err < 1e-5
                print(f"matmul-{size}  {variant:28s} {'ok' if ok else 'WRONG'} rel {err:.1e}  {t:.4f} ms  {flops / t / 1e9:.2f} TFLOP/s", flush=True)
                rows.append({"size": size, "variant": variant, "ms": t, "tflops": flops / t / 1e9, "relError": err, "correct": ok})
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"torch": torch.__version__, "triton": triton.__version__, "gpu": torch.cuda.get_device_name(), "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
