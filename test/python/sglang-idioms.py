"""Idioms of SGLang's Triton kernels (sgl-project/sglang, python/sglang/srt/layers/attention/
triton_ops/), in kernels of ours: decode_attention.py's grouped kernel scales a [heads, keys] block
by a scalar subscripted as a row, `qk *= xai_temperature_reg[:, None]`, where the scalar comes from
the sequence length (Triton's subscript splats a scalar to a block of shape [1] whatever the new
axis). double_sparsity_attention.py's: a module-level dtype chosen in a module-level `if` from a
server option (`REDUCE_TRITON_TYPE = tl.float16`) and read in its kernels (Triton lets a kernel read a
dtype global; another read where the text binds it plainly), and torch.topk of the kernel's scores
to pick its heavy tokens. elementwise.py's: `raise NotImplementedError()` and
`tl.extra.cuda.gdc_wait()` in branches a constexpr rules out (`if quant_max is not None:` with
quant_max None, `if USE_PDL:` with USE_PDL False), which Triton never compiles. int8_kernel.py's
`tl.extra.cuda.libdevice.round(x).to(tl.int8)`: halves away from zero. double_sparsity's stage 1:
in a loop a name (f32 before it) is given an f16 value, then an f32 one again before the body
ends, as Triton allows (it checks the type a loop carries). Sizes off the block."""

import math

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()

server_args = {"attention_reduce_in_fp32": False}
if server_args.get("attention_reduce_in_fp32", False):
    REDUCE_TYPE = tl.float32
else:
    REDUCE_TYPE = tl.float16
OUT_TYPE = tl.float32


@triton.jit
def temper_rows_kernel(x_ptr, lens_ptr, out_ptr, T: tl.constexpr, H: tl.constexpr, N: tl.constexpr,
                       BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(lens_ptr + b)
    temp = tl.where(n > T, tl.log2(n.to(tl.float32)) / tl.log2(float(T)), 1.0)
    offs_h = tl.arange(0, BLOCK_H)
    offs_n = tl.arange(0, BLOCK_N)
    mask = (offs_h[:, None] < H) & (offs_n[None, :] < N)
    offs = b * H * N + offs_h[:, None] * N + offs_n[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x *= temp[:, None]
    y = x + temp[None, :]
    tl.store(out_ptr + offs, y, mask=mask)


lens = [3, 40, 17]
H, N, T = 5, 12, 16
x = torch.randn(len(lens), H, N, device=DEVICE)
out = torch.empty_like(x)
temper_rows_kernel[(len(lens),)](x, torch.tensor(lens, dtype=torch.int32, device=DEVICE), out,
                                 T=T, H=H, N=N, BLOCK_H=8, BLOCK_N=16)
temps = torch.tensor([math.log2(n) / math.log2(T) if n > T else 1.0 for n in lens])
torch.testing.assert_close(out.cpu(), x.cpu() * temps[:, None, None] + temps[:, None, None])
print("a scalar subscripted as a row or a column (s[:, None], s[None, :]): match")


@triton.jit
def reduce_in_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(REDUCE_TYPE)
    tl.store(out_ptr + offs, (x * x).to(OUT_TYPE), mask=offs < n)


n = 45
x = torch.randn(n, device=DEVICE)
out = torch.empty(n, device=DEVICE)
reduce_in_kernel[(triton.cdiv(n, 16),)](x, out, n, BLOCK=16)
torch.testing.assert_close(out.cpu(), (x.cpu().half() * x.cpu().half()).float())
scores = out.view(5, 9)
top = torch.topk(scores, 4, dim=-1)
rows = scores.cpu().tolist()
want = [sorted(range(9), key=lambda j: -row[j])[:4] for row in rows]
assert top.indices.tolist() == want, (top.indices.tolist(), want)
assert top.values.tolist() == [[row[j] for j in w] for row, w in zip(rows, want)]
assert torch.topk(scores, 2, dim=0, largest=False).indices.shape == (2, 9)
print("a dtype global chosen in a module-level if, torch.topk: match")


@triton.jit
def silu_mul_kernel(out_ptr, x_ptr, quant_max: tl.constexpr, hidden: tl.constexpr, BLOCK: tl.constexpr,
                    USE_PDL: tl.constexpr = False):
    row = tl.program_id(axis=0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    if USE_PDL:
        tl.extra.cuda.gdc_wait()
    a = tl.load(x_ptr + row * hidden * 2 + offs, mask=mask, other=0.0)
    b = tl.load(x_ptr + row * hidden * 2 + hidden + offs, mask=mask, other=0.0)
    out = b * (a * tl.sigmoid(a))
    if quant_max is not None:
        raise NotImplementedError()
    if USE_PDL:
        tl.extra.cuda.gdc_launch_dependents()
    tl.store(out_ptr + row * hidden + offs, out, mask=mask)


x = torch.randn(3, 2 * 21, device=DEVICE)
out = torch.empty(3, 21, device=DEVICE)
silu_mul_kernel[(3,)](out, x, quant_max=None, hidden=21, BLOCK=32)
a, b = x.cpu()[:, :21], x.cpu()[:, 21:]
torch.testing.assert_close(out.cpu(), b * (a * torch.sigmoid(a)))
print("raise and tl.extra.cuda.gdc_wait() in branches a constexpr rules out: match")


@triton.jit
def round_to_int8_kernel(x_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    r = tl.extra.cuda.libdevice.round(x)
    tl.store(r_ptr + offs, r, mask=mask)
    tl.store(q_ptr + offs, r.to(tl.int8), mask=mask)


values = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997, 126.5, -127.5, 3.2, -3.7, 0.0, 8388607.5, 1e9]
x = torch.tensor(values, device=DEVICE)
q = torch.empty(len(values), dtype=torch.int8, device=DEVICE)
r = torch.empty(len(values), device=DEVICE)
round_to_int8_kernel[(2,)](x, q, r, len(values), BLOCK=8)
exact = x.cpu().tolist()
want = [float(int(v + 0.5)) if v >= 0 else -float(int(-v + 0.5)) for v in exact]
assert r.cpu().tolist() == want, (r.cpu().tolist(), want)
assert q.cpu().tolist()[:13] == [int(w) for w in want[:13]], q.cpu().tolist()
print("libdevice.round: halves away from zero: match")


@triton.jit
def rescore_kernel(q_ptr, k_ptr, out_ptr, scale, n, STEPS: tl.constexpr, D: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    offs_d = tl.arange(0, D)
    s = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for i in range(0, STEPS):
        q = tl.load(q_ptr + i * D + offs_d).to(tl.float16)
        k = tl.load(k_ptr + offs[:, None] * D + offs_d[None, :], mask=offs[:, None] < n, other=0.0).to(tl.float16)
        s = tl.sum(q[None, :] * k, 1)
        s *= scale
    s = tl.where(offs < n, s, float("-inf"))
    tl.store(out_ptr + offs, s, mask=offs < n)


q = torch.randn(3, 16, device=DEVICE)
k = torch.randn(13, 16, device=DEVICE)
out = torch.empty(13, device=DEVICE)
rescore_kernel[(1,)](q, k, out, 0.25, 13, STEPS=3, D=16, BLOCK=16)
torch.testing.assert_close(out.cpu(), (k.cpu() @ q.cpu()[2]) * 0.25, atol=2e-2, rtol=2e-2)
print("a name given another dtype in a loop and its own again before the body ends: match")
