// flash-attention's Triton kernels' idioms (test/python/flash-attn-idioms.py), on the GPU and with
// --cpu. Each failed before its change: `torch.library.wrap_triton(kernel)[grid](…)` (rotary.py,
// layer_norm.py) was NotInKernelLab, and `from torch._library.triton import set_wrap_triton_enabled`
// (flash_attn/utils/library.py, whose triton_op layer_norm.py registers its launches with)
// ModuleNotInKernelLab; `BLOCK_K: tl.constexpr = triton.next_power_of_2(ROTARY_DIM)` in a kernel was
// KL1101; `tl.split(tl.reshape(x, [BLOCK_H, BLOCK_M, BLOCK_K // 2, 2]))` and
// `tl.reshape(tl.join(o0, o1), [BLOCK_H, BLOCK_M, BLOCK_K])` (rotary.py's INTERLEAVED) KL1040, blocks
// having at most 3 axes; and `losses, z_losses = CrossEntropyLoss.apply(…)` then `z_losses - ref`
// (cross_entropy.py marks z_losses non-differentiable) NotInKernelLab "autograd through torch.sub", as
// was `mask.float().mean()` of layer_norm_fn's bool dropout mask (an autograd Function's output);
// flash_attn_triton.py's `tl.dot(q, k, trans_b=True)` (Triton 2.0.0.dev) KL1042, and its
// _bwd_kernel_one_col_block's `if begin_m >= seqlen_q: …; return` (a helper without a value) KL1071;
// linear.py's `x.shape[:-1].numel()` AttributeError (a slice of a torch.Size was a tuple).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("flash-attention's idioms: wrap_triton in a triton_op, triton.next_power_of_2 for a constexpr in a kernel, a 3-D block's last axis split and joined through 4-D shapes, outputs marked non-differentiable or of bools, tl.dot's trans_b, a helper's early return, a slice of a torch.Size; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/flash-attn-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length >= 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /wrap_triton in a triton_op; triton\.next_power_of_2 for a constexpr; split of a 4-D reshape, reshape of a 4-D join: match\noutputs marked non-differentiable or of bools are plain tensors \(0\.0e\+00\), backward gets zeros for them: match\ntl\.dot\(q, k, trans_b=True\); a helper without a value returning early at run time, in a loop: match\nx\.shape\[:-1\] is torch\.Size\(\[2, 3\]\), numel 6: match\n/);
  });
});
