"""KL3105 where the GPU usually sees the load before the store: x[i] = x[i + 1] + 1 over blocks of
64, in place, where program 0's lane 63 loads the element program 1's lane 0 stores. Running program
0 first, the GPU notes the hazard at the store, knowing the loading program but not its lane; the
harness finds the lane by interpreting that program alone. Whichever order the programs take, the
warning reads the same (as it does with --cpu)."""

import torch

import triton
import triton.language as tl


@triton.jit
def shift_back(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    nxt = tl.load(x_ptr + offs + 1, mask=offs + 1 < n, other=0.0)
    tl.store(x_ptr + offs, nxt + 1.0, mask=offs < n)


n = 100
x = torch.zeros(n, device="cuda")
for _ in range(3):
    shift_back[(triton.cdiv(n, 64),)](x, n, BLOCK=64)
print("shifted back ran")
