# torch's ops on GPU tensors run on the GPU and leave their results there: this whole expression
# copies x and y up once and brings back only the two scalars it prints (test/cli/python-run.test.ts
# counts the report's gpuCopies).
import torch
import triton

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
n = 5003
x = torch.rand(n, device=DEVICE)
y = torch.rand(n, device=DEVICE)
z = x + y
w = z * 2
print(w.sum().item())
ones = torch.ones(n, device=DEVICE)
print((w - ones).abs().max().item())
