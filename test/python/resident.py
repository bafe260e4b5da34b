# Tensors on the GPU stay there between launches: a launch binds a GPU tensor's buffer as it is,
# its output stays on the GPU, torch's ops on GPU tensors run there too, and elements come back
# to the CPU only when the script reads them.
# test/cli/python-run.test.ts counts the bytes copied (the report's gpuCopies).
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


def scale(x, factor):
    out = torch.empty_like(x)
    scale_kernel[(triton.cdiv(x.numel(), 256), )](x, out, x.numel(), factor, BLOCK=256)
    return out


n = 5003
x = torch.rand(n).to(DEVICE)  # made on the CPU: uploaded by the first launch that takes it
y = scale(x, 2.0)  # up: x (y, torch.empty_like's poison, is filled on the GPU); y stays there
z = scale(y, 3.0)  # y bound as it is; z poisoned on the GPU
torch.testing.assert_close(z, x * 6.0)  # x * 6.0 on the GPU; down: z and x * 6.0
# torch's x * z is a GPU kernel on both tensors' own buffers, called and timed: nothing copied (--bench off: not run).
triton.testing.do_bench(lambda: x * z)
x[0] = -1.0  # written on the GPU (a fill kernel): x's CPU copy is out of date
w = scale(x, 1.0)  # nothing up
print("w[0] =", w[0].item(), "y[1] / x[1] =", round(y[1].item() / x[1].item(), 3))  # down: w, y, x
