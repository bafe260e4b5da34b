// torch.compile's generated code (test/python/inductor-generated.py: three output code files of torch 2.2, 2.5 and
// 2.8 beside it, run through their call()), on the GPU and with --cpu. Before: `torch._inductor` was
// ModuleNotInKernelLab at import, `torch._C._dynamo` NotInKernelLab; then triton_helpers.max2's combine function
// `maximum`, passed by name inside the helper module, was KL1010 (lowered without the module's prefix), and
// inductor's `xmask = tl.full([XBLOCK], True, tl.int1)` KL2003 ("takes numbers, not masks").

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/inductor-generated.py");

test("torch.compile's output code (pointwise, Welford reduction, persistent softmax and RMSNorm) runs through its call(), on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error").map((d) => d.code), []);
    assert.ok(report.checks.length === 7 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /torch 2\.2 pointwise fusions \(relu, sigmoid\) through call\(\): match\ntorch 2\.5 Welford layer norm \(welford_reduce, welford\) through call\(\): match\ntorch 2\.8 persistent reductions \(promote_to_tensor, max2\) through call\(\): match\nsplit scans: refused\n/);
  });
});
