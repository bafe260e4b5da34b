// lightning-attention's idioms (test/python/lightning-attn-idioms.py), on the GPU and with --cpu. Each
// failed before its change: _bwd_intra_kernel's transposed decay mask tl.trans(tl.exp(…)) of indices and
// a loaded scalar was staged through 16 KiB of workgroup memory, KL2016 at WebGPU's default 16 KiB
// (--cpu) beside tl.dot's staging; `if s != None:` on a tensor was NotInKernelLab (an operand of type
// NoneType); and a gradient through F.pad came back None without a word (v.grad), while `o = 0;
// o += fn(…)` over head slices was NotInKernelLab (autograd through torch.add); a name assigned, then
// assigned afresh first thing in a later loop (_bwd_diag_kernel's `do`), KL1021 (the loop wrote the
// outer const instead of declaring its own).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("lightning-attention's idioms: a transposed exp decay mask recomputed, a tensor != None, gradients through F.pad, slices and += / - of tensors, a name assigned afresh in a later loop; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/lightning-attn-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 4 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /a transposed exp decay mask of indices and a scalar, beside tl\.dot: match\na tensor compared with None: match\ngradients through F\.pad, slices, 0 \+ t, t \+= u and t - u: match\na name assigned again first thing in a later loop: match\n/);
  });
});
