// applied-ai's idioms (test/python/applied-ai-idioms.py), on the GPU and with --cpu. Each failed before
// its change: a name assigned before a loop and reassigned from itself first thing in it (stay_attention's
// `si = tl.where(si == n - 1, 0, si + 1)`) was declared afresh in the loop since f4b2850, so every trip
// started from the value before the loop and the store under `if si == n - 1:` never ran (no diagnostic);
// a view made in an autograd.Function's forward (grad disabled) of an input that requires grad came out
// without requires_grad, so fused softmax's `if x.requires_grad: ctx.save_for_backward(res)` saved nothing
// and its backward raised AttributeError (saved_tensors); a launch gave back None, where Triton gives
// the compiled kernel (gptq's a100_qlinear prints `k.n_regs`): AttributeError on NoneType; `tl.float`
// (no such dtype) in a constexpr branch the launch leaves out was KL1101, where Triton never compiles it;
// from the AMD flash attention (torch_compile/flash_backward.py): a helper's string parameter passed on to
// padding_option was written as `true` (KL1040), a mask in min() and in `> 0` was KL2003, a block pointer's
// .type KL1080, a name first assigned in an if nested in a constexpr if (and again after) KL1022, and a
// custom op with register_autograd on tensors that require grad NotInKernelLab.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("applied-ai's idioms: a name reassigned from itself in a loop is carried, a view made in forward of an input that requires grad requires grad, a launch gives back the compiled kernel, tl.float in a branch left out, the AMD flash attention's idioms, a custom op's backward; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/applied-ai-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 6 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /a name reassigned from itself first thing in a loop, carried: match\na view of an input that requires grad, made in forward, requires grad: match\na launch gives back the compiled kernel, its asm the WGSL only: match\ntl\.float in a constexpr branch left out: match\na string through a helper to padding_option, a mask in min\(\) and > 0, a block pointer's type, a name first assigned in a nested if: match\na custom op's registered backward: match\n/);
  });
});
