# torch's ops as GPU kernels, for timing: inside triton.testing.do_bench's timed call, an op that
# torch would run on the GPU (x + y, torch.softmax, torch.matmul, F.layer_norm and its backward)
# also records one of these kernels, so the "torch" line of a benchmark is GPU time measured as the
# Triton line is (GPU timestamps), not the wall clock of Kernel Lab's CPU ops. The values the script
# sees still come from the exact CPU ops (_math.py, tensor-ops.ts); the kernels read their operands
# from the tensors' GPU buffers as they are and write the results into the results' own buffers,
# with nothing uploaded for a result (_resident.filled_on_gpu). An op with no kernel here is
# named once in the output as left out of the timing. The kernels are Kernel Lab kernels written as
# any Triton user would; test/python/torch-on-gpu.py runs each checked against the CPU op.

import contextlib

import _kernel_lab_state as _state
import triton
import triton.language as tl

from ._resident import filled_on_gpu

_ELEMENTWISE = {"add": 0, "sub": 1, "mul": 2, "div": 3}
_FLOATS = ("float32", "float16")
_inside = [False]
_said = set()


@triton.jit
def _elementwise(a_ptr, b_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    if OP == 0:
        out = a + b
    elif OP == 1:
        out = a - b
    elif OP == 2:
        out = a * b
    else:
        out = a / b
    tl.store(out_ptr + offs, out, mask=mask)


@triton.jit
def _softmax_rows(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    # One row per program, any width: an online max and sum over blocks, then the write.
    row = tl.program_id(0)
    x_ptr += row * n_cols
    out_ptr += row * n_cols
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.where(cols < n_cols, tl.exp(x - m_new), 0.0)
        m = tl.where(m_new == float("-inf"), m, m_new)
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        tl.store(out_ptr + cols, tl.exp(x - row_max) / row_sum, mask=cols < n_cols)


@triton.jit
def _matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Row-major (M, K) @ (K, N) per batch (program_id 1), accumulated in float32.
    batch = tl.program_id(1)
    a_ptr += batch * M * K
    b_ptr += batch * K * N
    c_ptr += batch * M * N
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BLOCK_N)
    rm = (pid // grid_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = (pid % grid_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        rk = k + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _layer_norm_fwd(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * N
    y_ptr += row * N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=cols < N)


@triton.jit
def _layer_norm_bwd_dx(x_ptr, w_ptr, dy_ptr, dx_ptr, mean_ptr, rstd_ptr, N, eps, BLOCK: tl.constexpr):
    # One row per program; its mean and rstd (torch saves them in the forward) go to the dw/db kernel.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(d * d, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    xhat = d * rstd
    g = w * dy
    dx = rstd * (g - tl.sum(g, axis=0) / N - xhat * (tl.sum(g * xhat, axis=0) / N))
    tl.store(dx_ptr + row * N + cols, dx, mask=mask)


@triton.jit
def _layer_norm_bwd_dwdb(x_ptr, dy_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A block of columns per program, summed over every row, BLOCK_M rows at a time.
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + rows, mask=rows < M, other=0.0)
        rstd = tl.load(rstd_ptr + rows, mask=rows < M, other=0.0)
        dw += dy * (x - mean[:, None]) * rstd[:, None]
        db += dy
    tl.store(dw_ptr + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(db_ptr + cols, tl.sum(db, axis=0), mask=cols < N)


def recording():
    """Inside do_bench's timed call, and not inside an op that records a kernel of its own."""
    return _state.recording and not _inside[0]


@contextlib.contextmanager
def one_op():
    """The CPU ops a composite op (layer_norm) is computed with aren't recorded one by one."""
    was = _inside[0]
    _inside[0] = True
    try:
        yield
    finally:
        _inside[0] = was


def left_out(name):
    if name not in _said:
        _said.add(name)
        print(f"[kernel-lab] do_bench: {name} has no GPU kernel in Kernel Lab's torch; it is left out of the GPU timing")


def _filled(*outs):
    """
    Inside do_bench's timed call the CPU op has already put the result in `outs`, so what the
    kernel writes there needn't come back (filled_on_gpu). Called outside it (a script checking
    one of these kernels against the CPU op), the kernel's writes are read back as any launch's.
    """
    return filled_on_gpu(*outs) if _state.recording else contextlib.nullcontext()


def _on_gpu(*tensors):
    return all(t.device.type == "cuda" and t.dtype.name in _FLOATS and t.is_contiguous() for t in tensors)


def elementwise(op, a, b, out):
    """out = a op b, recorded when both are GPU tensors of out's shape and dtype (a scalar side is left out)."""
    from ._tensor import Tensor
    if op not in _ELEMENTWISE or not all(isinstance(t, Tensor) for t in (a, b)) or not _on_gpu(a, b, out) \
            or a.shape != out.shape or b.shape != out.shape or a.dtype is not out.dtype or b.dtype is not out.dtype:
        left_out(f"torch.{op} on these operands")
        return out
    n = out.numel()
    with _filled(out):
        _elementwise[(triton.cdiv(n, 1024), )](a, b, out, n, OP=_ELEMENTWISE[op], BLOCK=1024)
    return out


def softmax_rows(x, out):
    if not _on_gpu(x, out) or out.dtype is not x.dtype:
        left_out("torch.softmax on these operands")
        return out
    n_cols = x.shape[-1]
    with _filled(out):
        _softmax_rows[(x.numel() // max(n_cols, 1), )](x, out, n_cols, BLOCK=min(1024, triton.next_power_of_2(n_cols)))
    return out


def matmul(a, b, out, count, m, k, n):
    if not _on_gpu(a, b, out):
        left_out("torch.matmul on these operands")
        return out
    grid = (triton.cdiv(m, 64) * triton.cdiv(n, 64), count)
    with _filled(out):
        _matmul[grid](a, b, out, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return out


def layer_norm(x, weight, bias, eps, y, n):
    if weight is None or bias is None or not _on_gpu(x, weight, bias, y):
        left_out("torch.nn.functional.layer_norm without weight and bias")
        return y
    with _filled(y):
        _layer_norm_fwd[(x.numel() // n, )](x, weight, bias, y, n, eps, BLOCK=min(1024, triton.next_power_of_2(n)))
    return y


def layer_norm_backward(x, weight, dy, eps, dx, dw, db, n):
    if weight is None or dw is None or db is None or not _on_gpu(x, weight, dy, dx, dw, db) or n > 16384:
        left_out("the backward of torch.nn.functional.layer_norm here")
        return
    import torch
    m = x.numel() // n
    mean = torch.empty((m, ), dtype=torch.float32, device=x.device)
    rstd = torch.empty((m, ), dtype=torch.float32, device=x.device)
    with _filled(dx, dw, db):
        _layer_norm_bwd_dx[(m, )](x, weight, dy, dx, mean, rstd, n, eps, BLOCK=triton.next_power_of_2(n))
        _layer_norm_bwd_dwdb[(triton.cdiv(n, 64), )](x, dy, mean, rstd, dw, db, m, n, BLOCK_M=16, BLOCK_N=64)
