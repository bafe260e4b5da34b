"""PyTorch and Triton on the same GPU and cases as bench/suite.ts, for the side-by-side table.

    python3 bench/torch_bench.py [--quick] [--sweep] [--out FILE]

--sweep: the size sweep of issue 13 item 5 (vector add 2^12 ... 2^28, softmax 4096 rows x 256 ... 16384,
square matmul 256 ... 4096), the same case names as `suite.js --sweep`.

Timing: triton.testing.do_bench (CUDA events, L2 flushed before every rep), median.
The Triton kernels are the tutorials' (vector add, fused softmax, layer norm forward, matmul),
with float32 matmul in IEEE precision (no TF32), as Kernel Lab computes it; dropout and the
layer-norm backward (tutorials 04 and 05) are in torch_dropout_and_layer_norm_bwd.py.
"""
import argparse
import json
import math

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

from torch_dropout_and_layer_norm_bwd import bench_dropout, bench_layer_norm_bwd

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def triton_add(x, y, out):
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    tl.store(output_ptr + row_idx * output_row_stride + col_offsets, numerator / denominator, mask=mask)


def triton_softmax(x, y):
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    num_warps = 4 if block < 2048 else 8 if block < 4096 else 16
    softmax_kernel[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols, BLOCK_SIZE=block, num_warps=num_warps)


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        tl.store(Y + cols, x_hat * w + b, mask=mask)


def triton_layer_norm(x, w, b, y, mean, rstd, eps=1e-5):
    M, N = x.shape
    max_fused = 65536 // x.element_size()
    block = min(max_fused, triton.next_power_of_2(N))
    num_warps = min(max(block // 256, 1), 8)
    layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=block, num_warps=num_warps)


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 16, "GROUP_M": 8}, num_stages=3, num_warps=8),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def triton_matmul(a, b, c):
    M, K = a.shape
    _, N = b.shape
    grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))


@triton.jit
def attn_fwd(Q, K, V, sm_scale, Out, stride_zh, stride_m, N_CTX,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, IS_CAUSAL: tl.constexpr):
    # Triton tutorial 06's forward (the inner loop of its online softmax), without its fp8/TMA
    # paths and in float32 with IEEE dots, one (batch, head) per program column.
    start_m = tl.program_id(0)
    off_zh = tl.program_id(1)
    base = off_zh.to(tl.int64) * stride_zh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * stride_m + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if IS_CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[None, :] * stride_m + offs_d[:, None], mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k, input_precision="ieee") * qk_scale
        qk = tl.where(cols[None, :] < N_CTX, qk, float("-inf"))
        if IS_CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * stride_m + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p, v, acc * alpha[:, None], input_precision="ieee")
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * stride_m + offs_d[None, :], acc, mask=offs_m[:, None] < N_CTX)


def triton_attention(q, k, v, o, causal, block_m=64, block_n=32, num_warps=4, num_stages=2):
    Z, H, N, D = q.shape
    attn_fwd[(triton.cdiv(N, block_m), Z * H)](q, k, v, 1 / math.sqrt(D), o, N * D, D, N,
                                                BLOCK_M=block_m, BLOCK_N=block_n, HEAD_DIM=D, IS_CAUSAL=causal,
                                                num_warps=num_warps, num_stages=num_stages)


@triton.jit
def attn_fwd_f16(Q, K, V, sm_scale, Out, stride_zh, stride_m, N_CTX,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, IS_CAUSAL: tl.constexpr):
    # Triton tutorial 06's forward as the tutorial runs it, in fp16: q, k, v fp16, both tl.dot on
    # tensor cores with fp32 accumulation, p rounded to fp16 for the second, out fp16; base-2 softmax
    # with the scale folded into qk_scale. (Without its fp8/TMA paths and its two-stage causal split:
    # every key block is masked, as examples/attention-f16.kernel.ts does.)
    start_m = tl.program_id(0)
    off_zh = tl.program_id(1)
    base = off_zh.to(tl.int64) * stride_zh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * stride_m + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if IS_CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[None, :] * stride_m + offs_d[:, None], mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(cols[None, :] < N_CTX, qk, float("-inf"))
        if IS_CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * stride_m + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < N_CTX)


def triton_attention_f16(q, k, v, o, causal, block_m, block_n, num_warps, num_stages):
    Z, H, N, D = q.shape
    attn_fwd_f16[(triton.cdiv(N, block_m), Z * H)](q, k, v, 1 / math.sqrt(D), o, N * D, D, N,
                                                    BLOCK_M=block_m, BLOCK_N=block_n, HEAD_DIM=D, IS_CAUSAL=causal,
                                                    num_warps=num_warps, num_stages=num_stages)


def bench(fn):
    return do_bench(fn, warmup=50, rep=300, return_mode="median")


def rel_err(got, ref):
    return ((got.double() - ref).norm() / ref.norm()).item()


def f16_cases(record, dev, quick):
    """The half-precision cases of bench/f16-cases.ts: torch.add and torch.matmul in float16 (matmul
    outputs f16 with fp32 accumulation on tensor cores, cuBLAS's default), each in its own try."""
    n = 2 ** (14 if quick else 24)
    try:
        x, y = torch.randn(n, device=dev, dtype=torch.float16), torch.randn(n, device=dev, dtype=torch.float16)
        out = torch.empty(n, device=dev, dtype=torch.float16)
        record(f"add-f16-{int(math.log2(n))}", "torch.add f16", bench(lambda: torch.add(x, y, out=out)), 6 * n)
    except Exception as e:  # noqa: BLE001
        print(f"add-f16: {type(e).__name__}: {str(e)[:200]}", flush=True)
    for m, n_, k in ([(96, 80, 72)] if quick else [(1000, 1001, 1003), (1024, 1024, 1024), (4096, 4096, 4096)]):
        try:
            a = torch.randn(m, k, device=dev, dtype=torch.float16)
            b = torch.randn(k, n_, device=dev, dtype=torch.float16)
            ref = a.double() @ b.double()
            flops = 2 * m * n_ * k
            record(f"matmul-f16-{m}x{n_}x{k}", "torch.matmul f16", bench(lambda: torch.matmul(a, b)), flops=flops, err=rel_err(torch.matmul(a, b), ref))
        except Exception as e:  # noqa: BLE001
            print(f"matmul-f16-{m}x{n_}x{k}: {type(e).__name__}: {str(e)[:200]}", flush=True)
        try:
            # As Kernel Lab's example writes C: f32 out (torch.mm's out_dtype, torch >= 2.8).
            record(f"matmul-f16-{m}x{n_}x{k}", "torch.mm f16, f32 out", bench(lambda: torch.mm(a, b, out_dtype=torch.float32)), flops=flops,
                   err=rel_err(torch.mm(a, b, out_dtype=torch.float32), ref))
        except Exception as e:  # noqa: BLE001
            print(f"matmul-f16-{m}x{n_}x{k} f32 out: {type(e).__name__}: {str(e)[:200]}", flush=True)
        try:
            # Triton tutorial 03 in f16 (the kernel above with f16 operands, f32 C, its autotune set).
            c32 = torch.empty(m, n_, device=dev, dtype=torch.float32)
            triton_matmul(a, b, c32)
            record(f"matmul-f16-{m}x{n_}x{k}", "triton tutorial 03 f16, f32 out", bench(lambda: triton_matmul(a, b, c32)), flops=flops, err=rel_err(c32, ref))
        except Exception as e:  # noqa: BLE001
            print(f"matmul-f16-{m}x{n_}x{k} triton: {type(e).__name__}: {str(e)[:200]}", flush=True)
    # Attention in f16 (examples/attention-f16.kernel.ts): SDPA f16 and tutorial 06 in f16 over
    # the tutorial's autotune space (BLOCK_M 64/128, BLOCK_N 32/64/128, 4/8 warps, 3-4 stages).
    for z, h, n_, d in ([(1, 2, 100, 64)] if quick else [(4, 32, 4096, 64)]):
        try:
            q, k, v = (torch.randn(z, h, n_, d, device=dev, dtype=torch.float16) for _ in range(3))
            o = torch.empty_like(q)
        except Exception as e:  # noqa: BLE001
            print(f"attention-f16: {type(e).__name__}: {str(e)[:200]}", flush=True)
            continue
        for causal in (False, True):
            case = f"attention-f16-{z}x{h}x{n_}x{d}" + ("-causal" if causal else "")
            flops = 4 * z * h * n_ * n_ * d / (2 if causal else 1)
            ref = torch.nn.functional.scaled_dot_product_attention(q[:1].double(), k[:1].double(), v[:1].double(), is_causal=causal)
            try:
                sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                record(case, "torch sdpa f16", bench(sdpa), flops=flops, err=rel_err(sdpa()[:1], ref))
            except Exception as e:  # noqa: BLE001
                print(f"{case} sdpa: {type(e).__name__}: {str(e)[:200]}", flush=True)
            for bm, bn, nw, ns in ((128, 64, 8, 3), (128, 64, 4, 3), (128, 128, 8, 3), (64, 64, 4, 3), (128, 32, 4, 4), (64, 32, 4, 4)):
                try:
                    triton_attention_f16(q, k, v, o, causal, bm, bn, nw, ns)
                    record(case, f"triton tutorial 06 f16 {bm}x{bn} w{nw} s{ns}", bench(lambda: triton_attention_f16(q, k, v, o, causal, bm, bn, nw, ns)), flops=flops, err=rel_err(o[:1], ref))
                except Exception as e:  # noqa: BLE001 (a config the compiler refuses, e.g. out of shared memory)
                    print(f"{case} triton {bm}x{bn} w{nw} s{ns}: {type(e).__name__}: {str(e)[:200]}", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--sweep", action="store_true")
    p.add_argument("--out")
    p.add_argument("--only-f16", action="store_true", help="only the half-precision cases (f16_cases)")
    p.add_argument("--cases", help="comma-separated case families to run (add,softmax,layernorm,matmul,attention,dropout,lnbwd,f16); default all")
    args = p.parse_args()
    dev = "cuda"
    rows = []

    def record(case, variant, ms, bytes_=None, flops=None, err=None):
        r = {"case": case, "variant": variant, "medianMs": ms}
        if bytes_:
            r["gbps"] = bytes_ / (ms * 1e6)
        if flops:
            r["tflops"] = flops / (ms * 1e9)
        if err is not None:
            r["relError"] = err
        rows.append(r)
        print(f"{case:22} {variant:28} {ms:.4f} ms  " + (f"{r['gbps']:.1f} GB/s" if bytes_ else f"{r['tflops']:.2f} TFLOP/s"), flush=True)

    if args.only_f16:
        f16_cases(record, dev, args.quick)
        return write_report(args.out, rows)
    fam = set(args.cases.split(",")) if args.cases else None
    want = lambda family: fam is None or family in fam
    for e in [] if not want("add") else ([14] if args.quick else [12, 14, 16, 18, 20, 22, 24, 26, 28] if args.sweep else [20, 24, 26]):
        n = 2 ** e
        x, y = torch.randn(n, device=dev), torch.randn(n, device=dev)
        out = torch.empty(n, device=dev)
        ref = x.double() + y.double()
        triton_add(x, y, out)
        record(f"add-{e}", "torch.add", bench(lambda: torch.add(x, y, out=out)), 12 * n)
        record(f"add-{e}", "triton tutorial", bench(lambda: triton_add(x, y, out)), 12 * n, err=rel_err(out, ref))

    shapes = [(64, 1000)] if args.quick else [(4096, c) for c in (256, 512, 1024, 2048, 4096, 8192, 16384)] if args.sweep else [(4096, 1024), (4096, 4096), (4096, 16384)]
    for m, n in shapes if want("softmax") else []:
        x = torch.randn(m, n, device=dev)
        y = torch.empty_like(x)
        ref = torch.softmax(x.double(), dim=1)
        triton_softmax(x, y)
        record(f"softmax-{m}x{n}", "torch.softmax", bench(lambda: torch.softmax(x, dim=1)), 8 * m * n)
        record(f"softmax-{m}x{n}", "triton tutorial", bench(lambda: triton_softmax(x, y)), 8 * m * n, err=rel_err(y, ref))

    for m, n in ([] if args.sweep or not want("layernorm") else shapes):
        x = torch.randn(m, n, device=dev)
        w, b = torch.randn(n, device=dev), torch.randn(n, device=dev)
        y = torch.empty_like(x)
        mean, rstd = torch.empty(m, device=dev), torch.empty(m, device=dev)
        ref = torch.nn.functional.layer_norm(x.double(), (n,), w.double(), b.double(), 1e-5)
        triton_layer_norm(x, w, b, y, mean, rstd)
        bytes_ = 4 * (2 * m * n + 2 * n)
        record(f"layernorm-{m}x{n}", "torch layer_norm", bench(lambda: torch.nn.functional.layer_norm(x, (n,), w, b, 1e-5)), bytes_)
        record(f"layernorm-{m}x{n}", "triton tutorial", bench(lambda: triton_layer_norm(x, w, b, y, mean, rstd)), bytes_, err=rel_err(y, ref))

    for s in [] if not want("matmul") else ([(96, 80, 72)] if args.quick else [(x, x, x) for x in (256, 512, 1024, 2048, 4096)] if args.sweep else [(1024, 1024, 1024), (4096, 4096, 4096)]):
        m, n, k = s
        a, b = torch.randn(m, k, device=dev), torch.randn(k, n, device=dev)
        c = torch.empty(m, n, device=dev)
        ref = a.double() @ b.double()
        triton_matmul(a, b, c)
        record(f"matmul-{m}x{n}x{k}", "torch.matmul fp32", bench(lambda: torch.matmul(a, b)), flops=2 * m * n * k, err=rel_err(torch.matmul(a, b), ref))
        record(f"matmul-{m}x{n}x{k}", "triton tutorial fp32", bench(lambda: triton_matmul(a, b, c)), flops=2 * m * n * k, err=rel_err(c, ref))

    for z, h, n, d in ([] if args.sweep or not want("attention") else [(1, 2, 100, 64)] if args.quick else [(4, 32, 4096, 64)]):
        q, k, v = (torch.randn(z, h, n, d, device=dev) for _ in range(3))
        o = torch.empty_like(q)
        for causal in (False, True):
            case = f"attention-{z}x{h}x{n}x{d}" + ("-causal" if causal else "")
            flops = 4 * z * h * n * n * d / (2 if causal else 1)
            ref = torch.nn.functional.scaled_dot_product_attention(q[:1].double(), k[:1].double(), v[:1].double(), is_causal=causal)
            sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
            record(case, "torch sdpa fp32", bench(sdpa), flops=flops, err=rel_err(sdpa()[:1], ref))
            for bm, bn, nw in ((64, 32, 4), (128, 32, 8), (64, 64, 4)):
                try:
                    triton_attention(q, k, v, o, causal, bm, bn, nw)
                    record(case, f"triton tutorial 06 fp32 {bm}x{bn} w{nw}", bench(lambda: triton_attention(q, k, v, o, causal, bm, bn, nw)), flops=flops, err=rel_err(o[:1], ref))
                except Exception as e:  # noqa: BLE001 (a config the compiler refuses, e.g. out of shared memory)
                    print(f"{case} triton {bm}x{bn} w{nw}: {type(e).__name__}: {str(e)[:200]}", flush=True)

    # Issue 13 item 4: dropout and the layer-norm backward, each in its own try so that a failure
    # there cannot lose the rest of the run.
    new_kernels = (
        ("dropout", lambda: bench_dropout([10007] if args.quick else [2 ** 24], record, bench)),
        ("layer-norm backward", lambda: bench_layer_norm_bwd([(67, 300)] if args.quick else [(4096, n) for n in (1024, 4096, 8192)], record, bench)),
    )
    for name, run in ([] if args.sweep else [k for k, f in zip(new_kernels, ("dropout", "lnbwd")) if want(f)]):
        try:
            run()
        except Exception as e:  # noqa: BLE001 (reported, and the run goes on)
            print(f"{name}: {type(e).__name__}: {str(e)[:300]}", flush=True)

    if not args.sweep and want("f16"):
        f16_cases(record, dev, args.quick)
    write_report(args.out, rows)


def write_report(out, rows):
    report = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__, "results": rows}
    if out:
        with open(out, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
