"""Kernels as kernel libraries publish them (Liger-Kernel, FlagGems, unsloth style; Kernel Lab's own
file): module-level tl.constexpr globals, libdevice imported from triton.language.extra, row
offsets widened with .to(tl.int64), and in-place stores through the pointer arguments. The last
part is the host code around a backward kernel: a dtype passed to a constexpr, `if not FLAG:` on a
bool constexpr, one program per SM from torch.cuda.get_device_properties, a DTensor check and a
@contextmanager with a bare yield."""

import contextlib
from typing import Optional

import torch

import triton
import triton.language as tl
from triton.language.extra.libdevice import tanh
from triton.language.extra import libdevice

SQRT_2_OVER_PI: tl.constexpr = 0.7978845608028654
GELU_COEF = tl.constexpr(0.044715)


@triton.jit
def gelu_tanh_and_mul_inplace(gate_ptr, up_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    """gate = gelu_tanh(gate) * up, row by row, written over gate."""
    row = tl.program_id(0).to(tl.int64)
    gate_ptr += row * stride
    up_ptr += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    g = tl.load(gate_ptr + cols, mask=mask, other=0).to(tl.float32)
    u = tl.load(up_ptr + cols, mask=mask, other=0)
    inner = SQRT_2_OVER_PI * (g + GELU_COEF * g * g * g)
    y = 0.5 * g * (1 + tanh(inner))
    tl.store(gate_ptr + cols, (y * u).to(gate_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_inplace(x_ptr, w_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row.to(tl.int64) * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + cols, mask=mask, other=0.).to(tl.float32)
    rstd = libdevice.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.)
    tl.store(x_ptr + cols, x * rstd * w, mask=mask)


def gelu_and_mul_(gate, up):
    n_rows, n_cols = gate.shape
    gelu_tanh_and_mul_inplace[(n_rows, )](gate, up, gate.stride(0), n_cols, BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return gate


def rms_norm_(x, w, eps=1e-6):
    n_rows, n_cols = x.shape
    rms_norm_inplace[(n_rows, )](x, w, x.stride(0), n_cols, eps, BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return x


torch.manual_seed(0)
gate = torch.randn(19, 300, device="cuda")
up = torch.randn(19, 300, device="cuda")
expected = torch.nn.functional.gelu(gate, approximate="tanh") * up
out = gelu_and_mul_(gate, up)
assert out is gate
torch.testing.assert_close(gate, expected, atol=1e-5, rtol=1e-5)

x = torch.randn(23, 130, device="cuda")
w = torch.rand(130, device="cuda")
expected = x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + 1e-6) * w
rms_norm_(x, w)
torch.testing.assert_close(x, expected, atol=1e-5, rtol=1e-5)
print("in-place gelu*up and rms norm match torch")


_MODE_SUM: tl.constexpr = tl.constexpr(0)


@triton.jit
def scale_rows_and_sum(x_ptr, y_ptr, partial_ptr, max_ptr, stride, n_rows, n_cols, scale, rows_per_program,
                       Y_dtype: tl.constexpr, SKIP_PARTIAL: tl.constexpr, mode: tl.constexpr,
                       RETURN_MAX: tl.constexpr, RETURN_STATS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    """y = (x * scale) in Y_dtype over this program's rows; their column sums in partial[pid], their largest element in max[pid]."""
    pid = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    running_max = tl.float32(-float("inf"))
    row_start = pid * rows_per_program
    row_end = min((pid + 1) * rows_per_program, n_rows)
    for row in range(row_start, row_end):
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        if mode == _MODE_SUM:
            acc += x
        if RETURN_MAX or RETURN_STATS:
            running_max = tl.maximum(running_max, tl.max(tl.where(mask, x, -float("inf")), axis=0))
        tl.store(y_ptr + row * stride + cols, (x * scale).to(Y_dtype), mask=mask)
    if not SKIP_PARTIAL:
        tl.store(partial_ptr + pid * n_cols + cols, acc, mask=mask)
    if RETURN_MAX or RETURN_STATS:
        tl.store(max_ptr + pid, running_max)


torch_to_triton = {torch.float32: tl.float32, torch.float16: tl.float16}


@contextlib.contextmanager
def on_device(device):
    device = torch.device(device)
    with torch.cuda.device(device):
        yield


def scale_and_column_sums(x, scale, out_dtype: Optional[torch.dtype], w: Optional[torch.FloatTensor] = None):
    assert torch.version.hip is None and not isinstance(x, torch.LongTensor) and isinstance(x, torch.FloatTensor)
    if isinstance(x, torch.distributed.tensor.DTensor):
        x = x.full_tensor()
    n_rows, n_cols = x.shape
    programs = torch.cuda.get_device_properties(x.device).multi_processor_count
    y = torch.empty((n_rows, n_cols), dtype=out_dtype, device=x.device)
    partial = torch.empty((programs, n_cols), dtype=torch.float32, device=x.device)
    maxima = torch.empty(programs, dtype=torch.float32, device=x.device)
    with on_device(x.device):
        scale_rows_and_sum[(programs,)](x, y, partial, maxima, x.stride(0), n_rows, n_cols, scale, triton.cdiv(n_rows, programs),
                                        torch_to_triton[out_dtype], SKIP_PARTIAL=False, mode=0, RETURN_MAX=True,
                                        RETURN_STATS=False, BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y, partial.sum(dim=0), maxima


x = torch.randn(45, 70, device="cuda")
y, sums, maxima = scale_and_column_sums(x, 0.5, torch.float16)
assert y.dtype == torch.float16
torch.testing.assert_close(y, (x * 0.5).half(), atol=1e-3, rtol=1e-3)
torch.testing.assert_close(sums, x.sum(dim=0), atol=1e-4, rtol=1e-4)
expected_maxima = torch.stack([x[p * 6:(p + 1) * 6].max() for p in range(8)])
assert torch.equal(maxima, expected_maxima) and not torch.equal(maxima, expected_maxima + 1)
print("a dtype constexpr, not FLAG, one program per SM:", torch.cuda.get_device_properties(0).multi_processor_count)

# Tutorial 02's persistent grid: compile ahead with warmup, read its register and shared-memory
# counts, then launch the compiled kernel with its own grid.
partial = torch.empty((8, 70), dtype=torch.float32, device="cuda")
maxima = torch.empty(8, dtype=torch.float32, device="cuda")
compiled = scale_rows_and_sum.warmup(x, y, partial, maxima, x.stride(0), 45, 70, 0.5, 6, tl.float16, SKIP_PARTIAL=False,
                                     mode=0, RETURN_MAX=True, RETURN_STATS=False, BLOCK_SIZE=128, num_warps=8, num_stages=2,
                                     grid=(1,))
compiled._init_handles()
assert compiled.n_regs > 0 and compiled.metadata.shared >= 0 and compiled.metadata.num_warps == 8
y.fill_(7.0)
compiled[(8, 1, 1)](x, y, partial, maxima, x.stride(0), 45, 70, 0.5, 6, tl.float16, False, 0, True, False, 128)
torch.testing.assert_close(y, (x * 0.5).half(), atol=1e-3, rtol=1e-3)


@triton.jit
def row_nll(x_ptr, target_ptr, loss_ptr, stride, n_cols, ignore_index, temperature,
            HAS_TEMPERATURE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    """-log softmax(x / temperature)[target] per row; 0 for an ignored row, which returns early."""
    row = tl.program_id(0)
    target = tl.load(target_ptr + row)
    if target == ignore_index:
        tl.store(loss_ptr + row, 0.0)
        return
    # Names bound before the early return, rebound with another dtype after it.
    row = row.to(tl.int64)
    if HAS_TEMPERATURE:
        temperature = 1.0 / temperature.to(tl.float32)
    x_ptr += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    x_target = tl.load(x_ptr + target).to(tl.float32)
    if HAS_TEMPERATURE:
        x = x * temperature
        x_target = x_target * temperature
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    tl.store(loss_ptr + row, lse - x_target)


logits = torch.randn(29, 300, device="cuda")
targets = torch.randint(0, 300, (29,), device="cuda")
targets[3] = -100
targets[17] = -100
losses = torch.empty(29, device="cuda")
row_nll[(29,)](logits, targets, losses, logits.stride(0), 300, -100, 2, HAS_TEMPERATURE=True, BLOCK_SIZE=512)
onehot = (torch.arange(300, device="cuda")[None, :] == targets[:, None]).float()
expected = -(torch.log_softmax(logits / 2, dim=-1) * onehot).sum(dim=-1)
torch.testing.assert_close(losses, expected, atol=1e-5, rtol=1e-5)
print("names rebound with another dtype after an early return")


# unsloth's style: the decorators called as functions, and tl / libdevice functions under names of
# the module's own (unsloth's utils.py: triton_tanh = libdevice.tanh, triton_cast = tl.cast).
fast_tanh = libdevice.tanh
cast_to = tl.cast


def _tanh_gate(x_ptr, out_ptr, n_elements, scale, BLOCK_SIZE: tl.constexpr, HAS_SCALE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if HAS_SCALE:
        x = x * scale
    # A mask in arithmetic is 1 or 0 in the other side's dtype (FlagGems' dropout: x * p * keep).
    tl.store(out_ptr + offs, cast_to(fast_tanh(x), tl.float32) * x * (x > 0), mask=mask)


_tanh_gate = triton.jit(_tanh_gate)
_tanh_gate = triton.heuristics({"HAS_SCALE": lambda args: args["scale"] != 1.0})(_tanh_gate)


class TanhGate(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda")
    def forward(ctx, x, scale):
        out = torch.empty_like(x)
        _tanh_gate[(triton.cdiv(x.numel(), 256),)](x, out, x.numel(), scale, BLOCK_SIZE=256)
        return out


@torch.compiler.disable
def tanh_gate(x, scale=1.0):
    return TanhGate.apply(x, scale)


x = torch.randn(3001, device="cuda")
for scale in (1.0, 0.5):
    torch.testing.assert_close(tanh_gate(x, scale), torch.tanh(x * scale) * (x * scale) * (x > 0).float(), atol=1e-6, rtol=1e-5)
assert torch.count_nonzero(x > 0).item() == int((x > 0).sum().item())
print("triton.jit(f) and triton.heuristics(...)(f), libdevice.tanh under a name of its own")
