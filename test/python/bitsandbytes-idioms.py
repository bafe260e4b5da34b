"""Idioms of bitsandbytes' Triton kernels (bitsandbytes-foundation/bitsandbytes, bitsandbytes/triton/,
removed in c27dc58), in kernels of ours. Its triton_utils.py asks torch whether Triton is there
(`from torch.utils._triton import has_triton, has_triton_package`) and, if not, defines every
quantiser as a function returning None. Its quantisers round with Triton 2.0's
`tl.libdevice.llrint(127.0 * (x / max_val))` (halves to even, an int64) and store through an int8
pointer. Its int8 matmuls accumulate `acc += tl.dot(a, b)` of int8 blocks into
`tl.zeros(..., dtype=tl.int32)`: Triton's int8 dot is an int32. Sizes off the block."""

import torch
import triton
import triton.language as tl

from torch.utils._triton import has_triton, has_triton_package

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def k_round(X, R, Q, N, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(X + o, mask=o < N)
    tl.store(R + o, tl.libdevice.rint(x), mask=o < N)
    tl.store(Q + o, tl.libdevice.llrint(127.0 * x), mask=o < N)


@triton.jit
def k_int8_dot(A, B, C, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(A + rm[:, None] * K + (k * BLOCK_K + rk)[None, :], mask=(rm[:, None] < M) & ((k * BLOCK_K + rk)[None, :] < K), other=0)
        b = tl.load(B + (k * BLOCK_K + rk)[:, None] * N + rn[None, :], mask=((k * BLOCK_K + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def main():
    print(f"torch.utils._triton: has_triton_package() {has_triton_package()}, has_triton() {has_triton()}")

    vals = [0.5, 1.5, 2.5, -1.5, -2.5, 0.49999997, 126.5, -127.5, 3.7, -3.7, 8388607.5, 2.0000002, 0.0]
    x = torch.tensor(vals, device=DEVICE)
    r = torch.empty_like(x)
    q = torch.empty(len(vals), dtype=torch.int8, device=DEVICE)
    k_round[(1,)](x, r, q, len(vals), BLOCK=16)
    want_r = [float(round(v)) for v in vals]  # Python's round: halves to even
    # 127 * x in f32, then halves to even, wrapped to 8 bits
    f32 = torch.tensor(vals, dtype=torch.float32) * 127.0
    want_q = [((round(v) + 128) % 256) - 128 for v in f32.tolist()]
    ok = r.tolist() == want_r and q.tolist() == want_q
    print(f"libdevice.rint / llrint: halves to even: {'match' if ok else f'MISMATCH {r.tolist()} {q.tolist()}'}")

    M, N, K = 20, 24, 100
    a = torch.randint(-128, 128, (M, K), dtype=torch.int32).to(torch.int8).to(DEVICE)
    b = torch.randint(-128, 128, (K, N), dtype=torch.int32).to(torch.int8).to(DEVICE)
    c = torch.empty((M, N), dtype=torch.int32, device=DEVICE)
    k_int8_dot[(1,)](a, b, c, M, N, K, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    al, bl = a.cpu().tolist(), b.cpu().tolist()
    want = [[sum(al[i][k] * bl[k][j] for k in range(K)) for j in range(N)] for i in range(M)]
    print(f"tl.dot of int8 blocks into an int32 accumulator: {'match' if c.cpu().tolist() == want else 'MISMATCH'}")


main()
