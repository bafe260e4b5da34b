"""Tutorial 07's idiom: libdevice functions in a kernel, launched as they are and with extern_libs
naming libdevice's bitcode (Kernel Lab's libdevice is its own WGSL, so the path isn't read)."""

import os

import torch

import triton
import triton.language as tl
from triton.language.extra import libdevice

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def inverse_trig_kernel(x_ptr, y_ptr, z_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, libdevice.asin(x) + 2.0 * libdevice.acos(x), mask=mask)
    tl.store(z_ptr + offsets, libdevice.atan(x * 40.0), mask=mask)


torch.manual_seed(0)
size = 3001
x = torch.rand(size, device=DEVICE) * 2 - 1
x[0], x[1] = 1.0, -1.0
expected_y = torch.asin(x) + 2.0 * torch.acos(x)
expected_z = torch.atan(x * 40.0)
grid = lambda meta: (triton.cdiv(size, meta['BLOCK_SIZE']), )
for extern_libs in (None, {'libdevice': os.path.join("nowhere", "libdevice.10.bc")}):
    y, z = torch.empty_like(x), torch.empty_like(x)
    if extern_libs is None:
        inverse_trig_kernel[grid](x, y, z, size, BLOCK_SIZE=1024)
    else:
        inverse_trig_kernel[grid](x, y, z, size, BLOCK_SIZE=1024, extern_libs=extern_libs)
    torch.testing.assert_close(y, expected_y, atol=2e-6, rtol=1e-6)
    torch.testing.assert_close(z, expected_z, atol=4e-7, rtol=4e-7)
    print(f'asin + 2 acos, atan: max difference {torch.max(torch.abs(y - expected_y)).item():.1e}')
try:
    inverse_trig_kernel[grid](x, y, z, size, BLOCK_SIZE=1024, extern_libs={'mylib': 'mylib.bc'})
except NotImplementedError as e:
    print("NotImplementedError:", e)
