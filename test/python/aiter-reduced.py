"""ROCm/aiter's idioms that Kernel Lab missed, reduced to kernels of ours (each failed before its fix, bench/NOTES.md §104):
`from triton.language import core` and `core.static_range` in a kernel (topk.py); a float constexpr past the i32 range,
torch.finfo(torch.float32).min, as a load's `other` (topk.py's FILL_VALUE); torch.library.infer_schema with a Library's
define / impl / _register_fake and the op called through torch.ops (aiter's torch_compile_guard); a helper's constexpr
that decides which name is None, given the kernel's own constexpr (mha.py's MASK_STEPS and PADDED_HEAD); a name given
another shape again in the run-time branch that first assigned it (the a16w16 GEMM's bias accumulator); a constexpr
deciding `and` / `or` with a run-time scalar (the MHA backward's debug prints). Sizes off the blocks."""

import torch
import triton
import triton.language as tl
from triton.language import core

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)


def report(name, ok, detail=""):
    print(name + ":", "match" if ok else f"differ {detail}")


# core.static_range and a -FLT_MAX constexpr: the row's 3 largest, masked lanes reading the lowest float.
@triton.jit
def top3(x_ptr, out_ptr, n, BLOCK: tl.constexpr, FILL: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    vals = tl.load(x_ptr + offs, mask=offs < n, other=FILL)
    for j in core.static_range(0, 3):
        top = tl.max(vals, axis=0)
        tl.store(out_ptr + j, top)
        vals = tl.where(vals == top, FILL, vals)


x = torch.randn(45, device=DEVICE)
out = torch.empty(3, device=DEVICE)
top3[(1,)](x, out, 45, BLOCK=64, FILL=torch.finfo(torch.float32).min)
report("core.static_range and a constexpr of -FLT_MAX", torch.allclose(out, torch.topk(x, 3).values))

# torch.library.infer_schema, as aiter's torch_compile_guard reads it, and the op defined with it.
lib = torch.library.Library("aiter_reduced", "FRAGMENT")


def scale_rows(x: torch.Tensor, w: torch.Tensor | None = None, dtype: torch.dtype | None = torch.bfloat16, alpha: float = 2.0, name: str = "a") -> torch.Tensor:
    return x * alpha if w is None else x * w * alpha


schema = torch.library.infer_schema(scale_rows, mutates_args=[])
want = '(Tensor x, Tensor? w=None, ScalarType? dtype=bfloat16, float alpha=2.0, str name="a") -> Tensor'
mutable = torch.library.infer_schema(scale_rows, mutates_args="unknown")
lib.define("scale_rows" + schema)
lib.impl("scale_rows", scale_rows, dispatch_key="CUDA")
lib.impl("scale_rows", scale_rows, dispatch_key="CPU")
lib._register_fake("scale_rows", lambda x, *rest, **kw: torch.empty_like(x))
got = torch.ops.aiter_reduced.scale_rows(x, alpha=3.0)
report("torch.library.infer_schema and an op defined with it", schema == want and mutable.startswith("(Tensor(a0!) x, Tensor(a1!)? w=None")
       and torch.allclose(got, x * 3.0), (schema, mutable))


# A helper whose constexpr decides which name is None, given the kernel's own constexprs (mha.py's _attn_fwd_inner).
@triton.jit
def load_rows(ptrs, offs, n):
    if offs is not None:
        tile = tl.load(ptrs, mask=offs[:, None] < n, other=0.0)
    else:
        tile = tl.load(ptrs)
    return tile


@triton.jit
def copy_tile(ptrs, out_ptrs, start, n, BLOCK: tl.constexpr, MASK_ROWS: tl.constexpr, PAD_COLS: tl.constexpr):
    if MASK_ROWS:
        offs = start + tl.arange(0, BLOCK)
    else:
        offs = None
    cols = None if not PAD_COLS else tl.arange(0, 8)
    tile = load_rows(ptrs, offs, n)
    if cols is not None:
        tile = tile + 0.0 * cols[None, :]
    tl.store(out_ptrs, tile, mask=(start + tl.arange(0, BLOCK))[:, None] < n)


@triton.jit
def copy_rows(x_ptr, out_ptr, n, BLOCK: tl.constexpr, PAD_COLS: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * BLOCK
    offs = (start + tl.arange(0, BLOCK))[:, None] * 8 + tl.arange(0, 8)[None, :]
    if start + BLOCK <= n:
        copy_tile(x_ptr + offs, out_ptr + offs, start, n, BLOCK, False, PAD_COLS)
    else:
        copy_tile(x_ptr + offs, out_ptr + offs, start, n, BLOCK, True, PAD_COLS)


rows = torch.randn((37, 8), device=DEVICE)
copied = torch.empty_like(rows)
copy_rows[(3,)](rows, copied, 37, BLOCK=16, PAD_COLS=True)
report("a helper's constexpr choosing None, given by the kernel", torch.equal(copied, rows))


# Another shape in the run-time branch that first assigned the name (the a16w16 GEMM's bias accumulator).
@triton.jit
def bias_tile(b_ptr, out_ptr, n, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    if tl.program_id(0) < n:
        acc = tl.load(b_ptr + offs)
        acc = tl.broadcast_to(acc[None, :], (M, N))
    else:
        acc = tl.zeros((M, N), dtype=tl.float32)
    acc += 1.0
    tl.store(out_ptr + tl.program_id(0) * M * N + tl.arange(0, M)[:, None] * N + offs[None, :], acc)


bias = torch.randn(8, device=DEVICE)
tiles = torch.empty((3, 4, 8), device=DEVICE)
bias_tile[(3,)](bias, tiles, 2, M=4, N=8)
want = torch.stack([bias[None, :].expand(4, 8) + 1, bias[None, :].expand(4, 8) + 1, torch.ones(4, 8, device=DEVICE)])
report("a name given another shape in its first run-time branch", torch.allclose(tiles, want))


# A constexpr deciding `and` with a run-time scalar (the MHA backward's `if DEBUG_TRITON_DETAIL and start_n == 256:`
# around prints of f-strings of block shapes): the branch it drops isn't compiled.
@triton.jit
def scaled(x_ptr, out_ptr, n, BLOCK: tl.constexpr, DEBUG: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if DEBUG and pid == 256:
        print(f"x: {x.shape}\n", x)
    if not DEBUG or pid >= 0:
        x = x * 2.0
    tl.store(out_ptr + offs, x, mask=offs < n)


xs = torch.randn(45, device=DEVICE)
doubled = torch.empty_like(xs)
scaled[(2,)](xs, doubled, 45, BLOCK=32, DEBUG=False)
report("a constexpr deciding `and` / `or` with a run-time scalar", torch.allclose(doubled, xs * 2))

