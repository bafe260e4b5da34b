"""Idioms of pytorch/torchtitan's Triton kernels (torchtitan/distributed/minimal_async_ep/kernels.py), in a kernel of
ours. Its parameters are annotated with Triton's types, `flat_indices: tl.pointer_type(tl.int64)`, `rank: tl.int64`,
and `-> None`, under `@triton.jit(do_not_specialize=[…])`: Python evaluates the annotations when the module is
imported, so `tl.pointer_type(tl.int64)` must be callable on the host (was TypeError: pointer_type() takes no
arguments). `_invert_flat_indices_kernel`'s scatter, on 300 rows of 128-row blocks. And fused_swiglu.py imports
`from torch.distributed.tensor.experimental import local_map` (was NotInKernelLab: no such module), calling it only on
DTensors; on plain tensors torch's local_map hands them to the function as they are. fused_mla.py registers its in-place
RoPE as `@torch.library.custom_op(…, mutates_args={"q"}, device_types="cuda", tags=torch.Tag.inplace)` (was
NotInKernelLab: torch.Tag)."""

import torch
import triton
import triton.language as tl
from torch.distributed.tensor import DTensor
from torch.distributed.tensor.experimental import local_map

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit(do_not_specialize=["shift"])
def invert_kernel(
    flat_indices: tl.pointer_type(tl.int64),
    slot_to_row: tl.pointer_type(tl.int64),
    shift: tl.int64,
    NUM_ROWS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
) -> None:
    row = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = row < NUM_ROWS
    slot = tl.load(flat_indices + row, mask=mask, other=0)
    tl.store(slot_to_row + slot, row + shift, mask=mask)


p = tl.pointer_type(tl.int64)
assert p == tl.pointer_type(tl.int64) and p.element_ty == tl.int64 and p != tl.pointer_type(tl.float32)
flat = torch.sort(torch.rand(300, device=DEVICE))[1].to(torch.int64)
out = torch.empty(300, dtype=torch.int64, device=DEVICE)
invert_kernel[(triton.cdiv(300, 128),)](flat, out, 5, NUM_ROWS=300, BLOCK_SIZE=128)
want = torch.empty(300, dtype=torch.int64, device=DEVICE)
want[flat] = torch.arange(300, device=DEVICE) + 5
torch.testing.assert_close(out, want)
print("parameters annotated tl.pointer_type(tl.int64) and tl.int64: match")


x = torch.randn(5, device=DEVICE)
assert not isinstance(x, DTensor)
doubled = local_map(lambda t: t * 2, out_placements=None, in_placements=None, device_mesh=None)
torch.testing.assert_close(doubled(x), x * 2)
print("torch.distributed.tensor.experimental.local_map on plain tensors: the function")


@torch.library.custom_op("kl_idioms::shift_", mutates_args={"x"}, device_types="cuda", tags=torch.Tag.inplace)
def shift_(x: torch.Tensor, by: int) -> torch.Tensor:
    invert_kernel[(triton.cdiv(x.numel(), 128),)](torch.arange(x.numel(), device=DEVICE), x, by, NUM_ROWS=x.numel(), BLOCK_SIZE=128)
    return x


assert torch.Tag.inplace in torch.Tag and torch.Tag.inplace is torch._C.Tag.inplace
y = torch.empty(77, dtype=torch.int64, device=DEVICE)
torch.testing.assert_close(shift_(y, 3), torch.arange(77, device=DEVICE) + 3)
print("a custom op registered with tags=torch.Tag.inplace: match")
