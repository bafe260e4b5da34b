"""Idioms of unslothai/unsloth's Triton kernels (unsloth/kernels/moe/grouped_gemm: interface.py, kernels/forward.py and
backward.py), in a kernel of ours: a grouped matmul whose programs walk the groups in a loop, each group's row count read
from memory (`size = tl.load(Meta + g)`), and take their tiles in a while loop around tl.dot and a tl.sum (barriers)
steered by it. Triton's scalar load is one value a program; WGSL's uniformity analysis can't see that where the buffer
is read_write (this kernel writes its tile counts into the same buffer; a read of a read-only buffer at a uniform index
it takes as uniform), so the read is handed out to every invocation before it steers the barrier (was KL2071). The group
loop is `range(GROUPS, flatten=True)`: Triton evaluates and drops the builtin range's keywords (backward.py's
`range(NUM_EXPERTS, flatten = FLATTEN)`; was KL1006, the keyword read as the end and step). And
`triton.compiler.CompiledKernel` named in an annotation, which Python evaluates at the `def` (interface.py; was an
AttributeError at import). Sizes off the blocks: groups of 5, 0, 37 and 3 rows, N 24 of a 32 block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def grouped_matmul_kernel(X, W, Y, Totals, Meta, N, K: tl.constexpr, GROUPS: tl.constexpr,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile = tl.program_id(0)
    row_end = 0
    done = 0
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    for g in range(GROUPS, flatten=True):  # a keyword of the builtin range, which Triton drops
        row_start = row_end
        size = tl.load(Meta + g)
        row_end = row_start + size
        tl.store(Meta + GROUPS + g, tl.cdiv(size, BLOCK_M), mask=tl.program_id(0) == 0)  # so Meta is read_write
        if size > 0:
            tiles = tl.cdiv(size, BLOCK_M)
            while tile >= done and tile < done + tiles:
                rows = (tile - done) * BLOCK_M + offs_m
                acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
                for k in range(0, K, BLOCK_K):
                    x = tl.load(X + (row_start + rows[:, None]) * K + k + offs_k[None, :], mask=rows[:, None] < size, other=0.0)
                    w = tl.load(W + g * K * N + (k + offs_k[:, None]) * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)
                    acc = tl.dot(x, w, acc)
                tl.store(Y + (row_start + rows[:, None]) * N + offs_n[None, :], acc, mask=(rows[:, None] < size) & (offs_n[None, :] < N))
                tl.store(Totals + tile * N + offs_n, tl.sum(acc, 0), mask=offs_n < N)  # the tile's column sums: a reduction
                tile += tl.num_programs(0)
            done += tiles


def grouped_matmul(x, w, meta, tiles, programs=3):
    y = torch.full((x.shape[0], w.shape[2]), float("nan"), device=DEVICE)
    totals = torch.full((tiles, w.shape[2]), float("nan"), device=DEVICE)
    grouped_matmul_kernel[(programs,)](x, w, y, totals, meta, w.shape[2], K=w.shape[1], GROUPS=w.shape[0], BLOCK_M=16, BLOCK_N=32, BLOCK_K=16)
    return y, totals


def check(compiled: triton.compiler.CompiledKernel = None):
    torch.manual_seed(0)
    sizes = [5, 0, 37, 3]
    K, N = 32, 24
    x = torch.randn(sum(sizes), K)
    w = torch.randn(len(sizes), K, N)
    parts = [x[s:s + m] @ w[g] for g, (s, m) in enumerate(zip([0, 5, 5, 42], sizes)) if m > 0]
    tiles = [p[i:i + 16].sum(0) for p in parts for i in range(0, p.shape[0], 16)]  # 1 + 3 + 1 tiles of 16 rows
    meta = torch.tensor(sizes + [-1] * len(sizes), dtype=torch.int32).to(DEVICE)
    y, totals = grouped_matmul(x.to(DEVICE), w.to(DEVICE), meta, len(tiles))
    assert meta.cpu().tolist() == sizes + [1, 0, 3, 1], meta.cpu().tolist()
    torch.testing.assert_close(y.cpu(), torch.cat(parts), atol=1e-3, rtol=1e-3)
    torch.testing.assert_close(totals.cpu(), torch.stack(tiles), atol=1e-3, rtol=1e-3)
    print("grouped matmul, group sizes loaded in the loop steering a while around tl.dot and tl.sum: 45x32 by 4x32x24 match")


check()
