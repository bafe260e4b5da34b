"""An autotuned f16 kernel with a masked load (Kernel Lab's own file): with --tune-codegen each config
is crossed with the load form ("block" or "select"), which changes the WGSL where n is a multiple of
16 and each invocation's elements make runs of 4 (4 warps: 4 or 8 elements each); 4000 = 250 × 16
is no multiple of either block, so the last program is masked. The kernel adds into its output:
`restore_value` (as in Triton) puts it back after each timed run; with --tune-codegen the tuning
runs on copies."""

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.autotune(configs=[triton.Config({'BLOCK': 512}), triton.Config({'BLOCK': 1024})], key=['n'], restore_value=['out_ptr'])
@triton.jit
def scale_half(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=-1.0)
    # Accumulates into out: without restore_value each timed run would add x * 3 again.
    acc = tl.load(out_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, acc + x.to(tl.float32) * 3.0, mask=mask)


torch.manual_seed(0)
n = 4000
x = torch.randn(n, device=DEVICE, dtype=torch.float16)
out = torch.zeros(n, device=DEVICE)
scale_half[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, out_ptr=out, n=n)
torch.testing.assert_close(out, x.float() * 3.0)
print("scaled", n)
