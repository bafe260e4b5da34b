"""Idioms of FlagOpen/FlagAttention's Triton kernels, in kernels of ours: the launch made under
`with torch.cuda.device(torch.cuda.device_of(q)):` (flash.py, piecewise.py, paged.py, split_kv.py, total.py: "to work
around https://github.com/openai/triton/issues/2441"), with the SM count read off
`torch.cuda.get_device_properties(torch.cuda.device_of(q))` (the split-kv heuristic); dropout seeded from the GPU's
generator as dropout.py's philox_cuda_seed_offset reads it (`c0, c1 = gen.get_state().view(torch.int64)`, then
`c1 += increment; gen.set_state(state_copy)` reserves the offsets a launch draws), the mask drawn with
`tl.rand(seed, offset + offs)` and drawn again from the same seed and offset (testing/dropout.py's recompute_mask).
Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def scaled_rows_kernel(X, Out, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * n_cols + offs, mask=mask, other=0.0)
    tl.store(Out + row * n_cols + offs, x * scale, mask=mask)


q = torch.randn((13, 37), device=DEVICE)
out = torch.empty_like(q)
device = torch.cuda.device_of(q)
num_sms = torch.cuda.get_device_properties(device).multi_processor_count
assert isinstance(num_sms, int) and num_sms > 0
with torch.cuda.device(device):
    scaled_rows_kernel[(q.shape[0],)](q, out, q.shape[1], 0.5, BLOCK=64)
with torch.cuda.device_of(q):
    pass
torch.testing.assert_close(out, q * 0.5, atol=1e-6, rtol=1e-6)
print("with torch.cuda.device(torch.cuda.device_of(q)): launch, get_device_properties(device_of(q)): match")


def philox_cuda_seed_offset(increment, device=None):
    device = device or torch.cuda.current_device()
    gen = torch.cuda.default_generators[device]
    state_copy = gen.get_state()
    c0, c1 = state_copy.view(torch.int64)
    seed, offset = int(c0), int(c1)
    increment = (increment + 3) // 4 * 4
    c1 += increment
    gen.set_state(state_copy)
    return seed, offset


@triton.jit
def dropout_kernel(X, Out, Keep, n, p, seed, offset, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    keep = tl.rand(seed, offset + offs, n_rounds=6) > p
    x = tl.load(X + offs, mask=mask, other=0.0)
    tl.store(Out + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)
    tl.store(Keep + offs, keep.to(tl.int32), mask=mask)


torch.manual_seed(7)
n, p = 1001, 0.3
x = torch.randn(n, device=DEVICE)
runs = []
for _ in range(2):
    seed, offset = philox_cuda_seed_offset(n)
    out, keep = torch.empty_like(x), torch.empty(n, dtype=torch.int32, device=DEVICE)
    dropout_kernel[(triton.cdiv(n, 256),)](x, out, keep, n, p, seed, offset, BLOCK=256)
    runs.append((seed, offset, out, keep))
(s0, o0, out0, keep0), (s1, o1, out1, keep1) = runs
assert (s0, o0, s1, o1) == (7, 0, 7, 1004), (s0, o0, s1, o1)
assert 0.6 < keep0.float().mean().item() < 0.8 and not bool((keep0 == keep1).all())
torch.testing.assert_close(out0, torch.where(keep0 != 0, x / (1 - p), 0.0), atol=1e-6, rtol=1e-6)
again, keep_again = torch.empty_like(x), torch.empty(n, dtype=torch.int32, device=DEVICE)
dropout_kernel[(triton.cdiv(n, 256),)](x, again, keep_again, n, p, s1, o1, BLOCK=256)
assert bool((keep_again == keep1).all())
torch.manual_seed(7)
assert philox_cuda_seed_offset(4) == (7, 0)
print("torch.cuda.default_generators[0].get_state().view(torch.int64), c1 += increment, set_state: seed 7, offsets 0 "
      "then 1004; tl.rand(seed, offset + offs) drawn again from them: match")
