"""shawntan/scattermoe's Triton kernels as published (test/python/scattermoe_kit/, scattermoe at 47b5e150, unchanged),
the few that lavapipe compiles in seconds: flatten_sort_count's routing, kernels.ops.scatter2scatter (each token's
rows times its experts' weights, scattered in and out) and group (rows gathered into expert order, times gate
coefficients), through their own entry points, against references written from the ops' definitions in Kernel Lab's
torch (loops over the routing, on the CPU). The script narrows the library's autotune configs and BLOCK_M (its own
module constant, as its test sets ALLOW_TF32) to 32-wide tiles: at its 128-wide ones each kernel takes lavapipe
from 10 s to minutes to compile. scattermoe-long-compiles.py runs every entry point at the library's configs (--cpu).
13 tokens, top-2 of 4 experts, 70 inputs and 45 outputs: off every block."""

import torch
import triton

import scattermoe_kit
from scattermoe_kit.kernels import ops

ops.BLOCK_M = 32
ops._scatter2scatter.configs = [triton.Config({"BLOCK_N": 32, "BLOCK_K": 16}, num_stages=4, num_warps=4)]
ops._group.configs = [triton.Config({"BLOCK_N": 32, "BLOCK_K": 32}, num_stages=4, num_warps=4)]

DEVICE = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
T, E, k, K, N = 13, 4, 2, 70, 45


def report(name, got, ref):
    got, ref = got.cpu(), ref.cpu()
    same = tuple(got.shape) == tuple(ref.shape) and torch.allclose(got, ref, atol=1e-4, rtol=1e-4)
    print(name + ":", "match" if same else (f"differ by {(got - ref).abs().max().item()}" if got.shape == ref.shape
                                            else f"shape {list(got.shape)}, not {list(ref.shape)}"))


x = torch.randn((T, K), device=DEVICE)
W = torch.randn((E, K, N), device=DEVICE) * 0.1
expert_idxs = torch.randint(0, E, (T, k), device=DEVICE)
s_e, s_s, offsets = scattermoe_kit.flatten_sort_count(expert_idxs, num_experts=E)

# The routing by definition: each (token, choice) pair f = t * k + j, in the order of its expert (stable).
routes = expert_idxs.cpu().tolist()
expert_of = [routes[f // k][f % k] for f in range(T * k)]
pairs = sorted(range(T * k), key=lambda f: expert_of[f])
counts = [expert_of.count(e) for e in range(E)]
ok = (s_s.cpu().tolist() == pairs and s_e.cpu().tolist() == [expert_of[f] for f in pairs]
      and offsets.cpu().tolist() == [sum(counts[:e + 1]) for e in range(E)])
print("flatten_sort_count:", "match" if ok else f"differ {s_s.cpu().tolist()} {s_e.cpu().tolist()} {offsets.cpu().tolist()}")

xc, Wc = x.cpu(), W.cpu()
report("scatter2scatter", ops.scatter2scatter(x, W, s_e, s_s, k), torch.stack([xc[f // k] @ Wc[expert_of[f]] for f in range(T * k)]))

coeff = torch.rand((T * k,), device=DEVICE)
cc = coeff.cpu()
report("group (coeff, fan_out 2)", ops.group(x, s_s, coeff=coeff, fan_out=k), torch.stack([xc[f // k] * cc[f].item() for f in pairs]))
