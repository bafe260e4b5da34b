# torch's ops on GPU tensors run on the GPU and leave their results there: this whole script
# copies one tensor up once and brings back only the two scalars it prints
# (test/cli/python-torch-subset.test.ts counts the report's gpuCopies).
import torch
import triton

DEVICE = triton.runtime.driver.active.get_active_torch_device()
n = 5003
x = torch.arange(n, dtype=torch.float32, device=DEVICE) / n  # made on the CPU side: uploaded once
y = torch.rand(n, device=DEVICE)  # drawn on the GPU (Philox): nothing uploaded
y = x * x + 0.25  # the same values on the GPU and with --cpu
z = x + y
w = z * 2
print(w.sum().item())
ones = torch.ones(n, device=DEVICE)
print((w - ones).abs().max().item())
