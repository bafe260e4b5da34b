// applied-ai's idioms (test/python/applied-ai-idioms.py), on the GPU and with --cpu. Each failed before
// its change: a name assigned before a loop and reassigned from itself first thing in it (stay_attention's
// `si = tl.where(si == n - 1, 0, si + 1)`) was declared afresh in the loop since f4b2850, so every trip
// started from the value before the loop and the store under `if si == n - 1:` never ran (no diagnostic);
// a view made in an autograd.Function's forward (grad disabled) of an input that requires grad came out
// without requires_grad, so fused softmax's `if x.requires_grad: ctx.save_for_backward(res)` saved nothing
// and its backward raised AttributeError (saved_tensors); a launch gave back None, where Triton gives
// the compiled kernel (gptq's a100_qlinear prints `k.n_regs`): AttributeError on NoneType; `tl.float`
// (no such dtype) in a constexpr branch the launch leaves out was KL1101, where Triton never compiles it.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("applied-ai's idioms: a name reassigned from itself in a loop is carried, a view made in forward of an input that requires grad requires grad, a launch gives back the compiled kernel, tl.float in a branch left out; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/applied-ai-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 4 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /a name reassigned from itself first thing in a loop, carried: match\na view of an input that requires grad, made in forward, requires grad: match\na launch gives back the compiled kernel, its asm the WGSL only: match\ntl\.float in a constexpr branch left out: match\n/);
  });
});
