"""Autotuned kernels that write into what they read (Kernel Lab's own file), as split-K matmuls and
histograms do: the autotuner times each config on the script's own tensors, so Triton's
`reset_to_zero`, `restore_value`, `Config(pre_hook=…)` and the autotuner's `pre_hook`/`post_hook`
are what keep the results right. Sizes are no multiple of any block."""

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


# Split-K row sums: each program adds its slice of a row into out with an atomic add.
@triton.autotune(configs=[triton.Config({'BLOCK_K': 32}), triton.Config({'BLOCK_K': 64})], key=['M', 'K'], reset_to_zero=['out_ptr'])
@triton.jit
def row_sums_split_k(a_ptr, out_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + rows[:, None] * stride_am + cols[None, :], mask=(rows[:, None] < M) & (cols[None, :] < K), other=0.0)
    tl.atomic_add(out_ptr + rows, tl.sum(a, axis=1), mask=rows < M)


# A histogram of int32 values: the counts add up across programs.
@triton.autotune(configs=[triton.Config({'BLOCK': 256}), triton.Config({'BLOCK': 512})], key=['n'], reset_to_zero=['hist_ptr'])
@triton.jit
def histogram(x_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    bins = tl.load(x_ptr + offsets, mask=mask, other=0)
    tl.atomic_add(hist_ptr + bins, tl.full((BLOCK,), 1, tl.int32), mask=mask)


# The same kernel adding a second batch onto the counts: restore_value puts them back after each timed run.
histogram_more = triton.autotune(configs=[triton.Config({'BLOCK': 256}), triton.Config({'BLOCK': 512})], key=['n'],
                                 restore_value=['hist_ptr'])(histogram.fn)


def keep_small_blocks(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs['BLOCK'] <= named_args['n']]


def zero_out(nargs):
    nargs['out_ptr'].zero_()


# out += x, each config zeroing out first (a Config's pre_hook); the 4096 config is pruned for n < 4096.
@triton.autotune(configs=[triton.Config({'BLOCK': 128}, pre_hook=zero_out), triton.Config({'BLOCK': 256}, pre_hook=zero_out),
                          triton.Config({'BLOCK': 4096}, pre_hook=zero_out)],
                 key=['n'], prune_configs_by={'early_config_prune': keep_small_blocks})
@triton.jit
def add_into(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    acc = tl.load(out_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, acc + tl.load(x_ptr + offsets, mask=mask), mask=mask)


saved = {}


def save_out(nargs, reset_only=False):
    if not reset_only:
        saved['out'] = nargs['out_ptr'].clone()


def restore_out(nargs, exception=None):
    nargs['out_ptr'].copy_(saved.pop('out'))


# The same kernel tuned with the autotuner's own hooks: out is saved before each timed run and put back after.
add_kept = triton.autotune(configs=[triton.Config({'BLOCK': 128}), triton.Config({'BLOCK': 256})], key=['n'],
                           pre_hook=save_out, post_hook=restore_out)(add_into.fn)


torch.manual_seed(0)
M, K = 37, 300
a = torch.randn((M, K), device=DEVICE)
sums = torch.zeros(M, device=DEVICE)
row_sums_split_k[lambda meta: (triton.cdiv(M, meta['BLOCK_M']), triton.cdiv(K, meta['BLOCK_K']))](a, sums, M, K, a.stride(0), BLOCK_M=16)
torch.testing.assert_close(sums, a.sum(dim=1), atol=1e-4, rtol=1e-4)
print("row sums", M, K)

n = 3001
x = (torch.rand(n, device=DEVICE) * 16).to(torch.int32)
hist = torch.zeros(16, device=DEVICE, dtype=torch.int32)
histogram[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, hist, n)
expected = [0] * 16
for v in x.tolist():
    expected[v] += 1
assert hist.tolist() == expected, f"histogram {hist.tolist()} != {expected}"
print("histogram", sum(hist.tolist()))
more = (torch.rand(n, device=DEVICE) * 16).to(torch.int32)
histogram_more[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](more, hist, n)
for v in more.tolist():
    expected[v] += 1
assert hist.tolist() == expected, f"histogram {hist.tolist()} != {expected}"
print("histogram", sum(hist.tolist()))

n = 1000
y = torch.rand(n, device=DEVICE)
out = torch.full((n,), 5.0, device=DEVICE)
add_into[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](y, out, n)
torch.testing.assert_close(out, y)
print("pruned to", [c.kwargs['BLOCK'] for c in keep_small_blocks(add_into.configs, {'n': n})])

kept = torch.full((n,), 5.0, device=DEVICE)
add_kept[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](y, kept, n)
torch.testing.assert_close(kept, y + 5.0)
print("kept", n)
