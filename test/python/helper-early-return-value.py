"""A @triton.jit helper that returns a value early at run time, as flash-attention's compute_block_masking does
(`if k_max_token < 0: return 0, 0, 0, 0, n_extra_tokens` under a constexpr branch, then a tuple at its end): each path's
result reaches the call, a tuple's elements, a scalar and a block, nested and after a constexpr branch, against the
same logic in Python."""

import torch
import triton
import triton.language as tl


@triton.jit
def classify(x, LIMIT: tl.constexpr, CLAMP: tl.constexpr):
    extra = x % 4
    if CLAMP:
        if x < 0:
            return 0, 0, extra
        y = tl.minimum(x, LIMIT)
    else:
        y = x
    if y > 10:
        return y, 1, extra
    return y * 2, 2, extra


@triton.jit
def scaled(offs, x, n):
    if x > 5:
        return tl.where(offs < n, offs * x, 0)
    return offs


@triton.jit
def kernel(X, Out, Blocks, n, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    x = tl.load(X + i)
    a, b, c = classify(x, 20, True)
    d, _, _ = classify(x, 20, False)
    tl.store(Out + 4 * i, a)
    tl.store(Out + 4 * i + 1, b)
    tl.store(Out + 4 * i + 2, c)
    tl.store(Out + 4 * i + 3, d)
    offs = tl.arange(0, BLOCK)
    tl.store(Blocks + i * BLOCK + offs, scaled(offs, x, n), mask=offs < BLOCK)


def classify_ref(x, limit, clamp):
    extra = x % 4 if x >= 0 else -((-x) % 4)  # Triton's % keeps the dividend's sign
    if clamp:
        if x < 0:
            return 0, 0, extra
        y = min(x, limit)
    else:
        y = x
    if y > 10:
        return y, 1, extra
    return y * 2, 2, extra


xs = [-5, 3, 12, 30, 7, -9, 0]
x = torch.tensor(xs, dtype=torch.int32, device="cuda")
out = torch.full((4 * len(xs),), -1, dtype=torch.int32, device="cuda")
blocks = torch.full((len(xs), 8), -1, dtype=torch.int32, device="cuda")
kernel[(len(xs),)](x, out, blocks, 5, BLOCK=8)
want = [v for xv in xs for v in (*classify_ref(xv, 20, True), classify_ref(xv, 20, False)[0])]
print("tuple and scalar results:", "match" if out.tolist() == want else f"differ: {out.tolist()} vs {want}")
want_blocks = [[(o * xv if o < 5 else 0) if xv > 5 else o for o in range(8)] for xv in xs]
print("block results:", "match" if blocks.tolist() == want_blocks else f"differ: {blocks.tolist()} vs {want_blocks}")
