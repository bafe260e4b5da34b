"""Idioms of triton-lang/kernels' Triton kernels (kernels/), in kernels of ours: blocksparse's
make_lut reads a layout's nonzero blocks with `layout.nonzero(as_tuple=False)[:, 2]` and launches
with the columns as a LUT; its dsd_lut spreads pointer increments with
`incs.view(-1, 1).repeat(1, div)`. Sizes off the block."""

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()

layout = torch.tensor([[[1, 0, 1], [0, 0, 0], [0, 1, 1]], [[0, 0, 1], [1, 1, 0], [0, 0, 0]]])
assert layout.nonzero().tolist() == [[0, 0, 0], [0, 0, 2], [0, 2, 1], [0, 2, 2], [1, 0, 2], [1, 1, 0], [1, 1, 1]]
assert layout.nonzero().dtype == torch.int64
h, i, j = layout.nonzero(as_tuple=True)
assert (h.tolist(), j.tolist()) == ([0, 0, 0, 0, 1, 1, 1], [0, 2, 1, 2, 2, 0, 1])
assert torch.tensor([0.0, float("nan"), 2.0]).nonzero().tolist() == [[1], [2]]
assert tuple(torch.zeros(2, 3).nonzero().shape) == (0, 2)
assert torch.nonzero(torch.tensor(5)).shape == (1, 0)


@triton.jit
def gather_blocks_kernel(x_ptr, lut_ptr, out_ptr, n, BLOCK: tl.constexpr, PAD: tl.constexpr):
    b = tl.program_id(0)
    col = tl.load(lut_ptr + b)
    lane = tl.arange(0, PAD)
    v = tl.load(x_ptr + col * BLOCK + lane, mask=lane < BLOCK)
    tl.store(out_ptr + b * BLOCK + lane, v, mask=lane < BLOCK)


columns = layout.nonzero(as_tuple=False)[:, 2]
# dsd_lut's step: each block's increment, then `div` steps of it
incs = columns.view(-1, 1).repeat(1, 2)
incs[:, 1:] = 7
assert incs.view(-1).tolist() == [0, 7, 2, 7, 1, 7, 2, 7, 2, 7, 0, 7, 1, 7]
assert torch.tensor([[1, 2], [3, 4]]).repeat(2, 1, 3).tolist() == [[[1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4]]] * 2
assert torch.arange(3, device=DEVICE).repeat(2).tolist() == [0, 1, 2, 0, 1, 2]
lut = columns.type(torch.int32).to(DEVICE)
x = torch.randn(3 * 5, device=DEVICE)
out = torch.empty(columns.numel() * 5, device=DEVICE)
gather_blocks_kernel[(columns.numel(),)](x, lut, out, x.numel(), BLOCK=5, PAD=8)
want = torch.cat([x.cpu()[c * 5:(c + 1) * 5] for c in columns.tolist()])
torch.testing.assert_close(out.cpu(), want)
print("blocks gathered through a LUT from layout.nonzero(): match")
