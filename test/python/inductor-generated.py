"""The code torch.compile prints (TORCH_LOGS=output_code, /tmp/torchinductor_*/…/c*.py), run as inductor writes it:
three generated files beside this one (inductor_generated/), each's call(args) checked against Kernel Lab's torch.
- lora_torch22.py (torch 2.2): `triton_poi_fused_add_mul_relu_0` and `…_sigmoid_1`, pointwise fusions decorated
  `@pointwise(size_hints=[64], …)`, launched `.run(…, grid=grid(56), stream=…)` between extern_kernels.mm calls;
  56 and 28 elements in a 64- and 32-wide XBLOCK; `triton_helpers.maximum(0, tmp6)` is the relu.
- gmixer_layer_norm_torch25.py (torch 2.5, timm's gmixer_24_224): layer norm as a split Welford reduction
  (`triton_helpers.welford_reduce` in a loop over RBLOCK, `triton_helpers.welford` across it), the combine of the
  three partials (a persistent reduction, RBLOCK 4 for 3), and the normalisation; XBLOCK 64 over 4704 rows, 128 over
  1568; buffers made by empty_strided_cuda with padded strides.
- rmsnorm_softmax_torch28.py (torch 2.8): an RMSNorm with no x dimension (`promote_to_tensor(tl.sum(…))`) and
  `triton_per_fused__softmax_add_zeros_3` (`triton_helpers.max2`, 50 of a 64-wide R0_BLOCK), launched
  `.run(*args, xnumel, r0_numel, stream=…)` with the grid from inductor_meta's grid_type; its output strided 2528.
Before: `torch._inductor` was ModuleNotInKernelLab at import and `torch._C._dynamo` NotInKernelLab."""

import torch
import torch.nn.functional as F

from inductor_generated import gmixer_layer_norm_torch25, lora_torch22, mm_template_torch25, rmsnorm_softmax_torch28

torch.manual_seed(0)
cuda = "cuda"

# torch 2.2: relu(x W1ᵀ + b1 + 0.5·x A1 B1), then sigmoid(h W3ᵀ + b3 + 0.5·h A3 B3).
p = [torch.randn(s, device=cuda) for s in [(8, 16), (8,), (4, 8), (4,), (16, 5), (5, 8), (8, 5), (5, 4), (7, 16)]]
w1, b1, w3, b3, a1, bb1, a3, bb3, x = p
out = lora_torch22.call(list(p))
h = torch.relu(x @ w1.T + b1 + (x @ a1 @ bb1) * 0.5)
torch.testing.assert_close(out[2], h)
torch.testing.assert_close(out[0], torch.sigmoid(h @ w3.T + b3 + (h @ a3 @ bb3) * 0.5))
print("torch 2.2 pointwise fusions (relu, sigmoid) through call(): match")

# torch 2.5: layer norm over 384 channels of (conv output + bias), its mean and sum of squares kept.
x = torch.randn(8, 384, 14, 14, device=cuda)
bias, weight, beta = (torch.randn(384, device=cuda) for _ in range(3))
out, mean, m2 = gmixer_layer_norm_torch25.call([x, bias, weight, beta])
t = (x.reshape(8, 384, 196) + bias[None, :, None]).permute(0, 2, 1)
ref_mean = t.mean(dim=-1)
torch.testing.assert_close(mean.reshape(8, 196), ref_mean)
torch.testing.assert_close(m2.reshape(8, 196) / 384, ((t - ref_mean[..., None]) ** 2).mean(dim=-1))
torch.testing.assert_close(out, F.layer_norm(t, (384,), weight, beta, eps=1e-6).permute(0, 2, 1))
print("torch 2.5 Welford layer norm (welford_reduce, welford) through call(): match")

# torch 2.8: RMSNorm of a + b, and softmax(s + bias) into a buffer of row stride 2528.
a, b, w = torch.randn(1, 50, 384, device=cuda), torch.randn(50, 384, device=cuda), torch.randn(384, device=cuda)
s, bias = torch.randn(8, 50, 50, device=cuda), torch.randn(50, device=cuda)
rms, sm = rmsnorm_softmax_torch28.call([a, b, w, s, bias])
h = a + b
torch.testing.assert_close(rms, w * (h * torch.rsqrt((h * h).mean(dim=-1, keepdim=True) + 1e-6)))
assert sm.stride() == (2528, 50, 1), sm.stride()
torch.testing.assert_close(sm, torch.softmax(s + bias, dim=-1))
print("torch 2.8 persistent reductions (promote_to_tensor, max2) through call(): match")

# torch 2.5 with max-autotune: SiLU, the mm template (K 200 over BLOCK_K 64: EVEN_K False) and the addmm template's
# bias epilogue, in f16, launched with torch._inductor.kernel.mm_common.mm_grid.
x = torch.randn(10, 200, device=cuda, dtype=torch.float16)
w1 = torch.randn(96, 200, device=cuda, dtype=torch.float16) / 14
w2 = torch.randn(72, 96, device=cuda, dtype=torch.float16) / 10
b2 = torch.randn(72, device=cuda, dtype=torch.float16)
out, s, h, _ = mm_template_torch25.call([x, w1, w2, b2])
torch.testing.assert_close(s, F.silu(x.float()).half())
torch.testing.assert_close(h.float(), s.float() @ w1.float().T, atol=1e-2, rtol=1e-2)
torch.testing.assert_close(out.float(), h.float() @ w2.float().T + b2.float(), atol=1e-2, rtol=1e-2)
print("torch 2.5 max-autotune templates (mm with EVEN_K False, addmm's bias epilogue) through call(): match")

# What can't run on WebGPU refuses by name.
from torch._inductor.runtime import triton_heuristics  # noqa: E402
try:
    triton_heuristics.split_scan_grid(16, 1024)
except NotImplementedError as e:
    assert "split_scan_grid" in str(e), e
    print("split scans: refused")
