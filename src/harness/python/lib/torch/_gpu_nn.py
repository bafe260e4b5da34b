# The kernels of torch's softmax, matmul, layer norm (forward, and the backward tutorial 05
# differentiates) and F.conv2d on GPU tensors (_on_gpu.py launches them): written as a Triton user would, in
# float32 whatever the tensors' dtype (torch's CUDA kernels accumulate float16 in float32 too).

import triton
import triton.language as tl


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
        tl.store(out_ptr + cols, (tl.exp(x - row_max) / row_sum).to(out_ptr.dtype.element_ty), mask=cols < n_cols)


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
def _row_stats(x_ptr, N, eps, BLOCK: tl.constexpr):
    """A row's mean and 1 / std (two passes, float32), a block at a time: any width."""
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
    return mean, rstd


@triton.jit
def _layer_norm_fwd(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * N
    y_ptr += row * N
    mean, rstd = _row_stats(x_ptr, N, eps, BLOCK)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(y_ptr + cols, ((x - mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def _layer_norm_bwd_dx(x_ptr, w_ptr, dy_ptr, dx_ptr, mean_ptr, rstd_ptr, N, eps, BLOCK: tl.constexpr):
    # One row per program, any width, a block at a time: its mean and rstd (torch saves them in the
    # forward; they go to the dw/db kernel too), then the two sums dx needs, then dx.
    row = tl.program_id(0)
    x_ptr += row * N
    dy_ptr += row * N
    dx_ptr += row * N
    mean, rstd = _row_stats(x_ptr, N, eps, BLOCK)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    sum_g = tl.zeros([BLOCK], dtype=tl.float32)
    sum_gx = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        g = w * dy
        sum_g += g
        sum_gx += g * xhat
    c1 = tl.sum(sum_g, axis=0) / N
    c2 = tl.sum(sum_gx, axis=0) / N
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        xhat = (x - mean) * rstd
        dx = rstd * (w * dy - c1 - xhat * c2)
        tl.store(dx_ptr + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _layer_norm_bwd_dwdb(x_ptr, dy_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, M, N, rows_per, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A block of columns and a share of rows_per rows per program: its partial sums go to row
    # program_id(1) of dw_ptr and db_ptr (float32, one row a share), added up by _sum_shares.
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    first = tl.program_id(1) * rows_per
    dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, rows_per, BLOCK_M):
        share = start + tl.arange(0, BLOCK_M)
        rows = first + share
        in_rows = (rows < M) & (share < rows_per)
        mask = in_rows[:, None] & (cols[None, :] < N)
        x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + rows, mask=in_rows, other=0.0)
        rstd = tl.load(rstd_ptr + rows, mask=in_rows, other=0.0)
        dw += dy * (x - mean[:, None]) * rstd[:, None]
        db += dy
    tl.store(dw_ptr + tl.program_id(1) * N + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(db_ptr + tl.program_id(1) * N + cols, tl.sum(db, axis=0), mask=cols < N)


@triton.jit
def _sum_shares(part_ptr, out_ptr, shares, N, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for share in range(0, shares):
        acc += tl.load(part_ptr + share * N + cols, mask=cols < N, other=0.0)
    tl.store(out_ptr + cols, acc.to(out_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def _conv2d(x_ptr, w_ptr, b_ptr, out_ptr, total, C, H, W, O, OH, OW, C_G, O_G, KH, KW,
            stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, HAS_BIAS: tl.constexpr, BLOCK: tl.constexpr):
    # F.conv2d of contiguous x [N, C, H, W] and w [O, C_G, KH, KW] (C_G = C / groups, O_G = O / groups):
    # one output element per lane, (n, o, oh, ow) flattened, its taps summed in float32 (a direct
    # convolution: each tap a gather of x, zero in the padding, and one weight per lane).
    offs = (tl.program_id(1) * tl.num_programs(0) + tl.program_id(0)) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < total
    ow = offs % OW
    oh = (offs // OW) % OH
    o = (offs // (OW * OH)) % O
    n = offs // (OW * OH * O)
    first_in = (o // O_G) * C_G
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(0, C_G):
        plane = (n * C + first_in + c) * H
        taps = (o * C_G + c) * KH
        for kh in range(0, KH):
            ih = oh * stride_h - pad_h + kh * dil_h
            in_rows = inside & (ih >= 0) & (ih < H)
            for kw in range(0, KW):
                iw = ow * stride_w - pad_w + kw * dil_w
                tap = in_rows & (iw >= 0) & (iw < W)
                x = tl.load(x_ptr + (plane + ih) * W + iw, mask=tap, other=0.0).to(tl.float32)
                w = tl.load(w_ptr + (taps + kh) * KW + kw, mask=inside, other=0.0).to(tl.float32)
                acc += x * w
    if HAS_BIAS:
        acc += tl.load(b_ptr + o, mask=inside, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, acc.to(out_ptr.dtype.element_ty), mask=inside)
