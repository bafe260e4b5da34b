// lucidrains/triton-transformer's idioms (test/python/triton-transformer-idioms.py), on the GPU and with --cpu. Its
// kernels take Triton 1.x's `**meta`, which Triton 2 and later refuse: Kernel Lab refuses it too, and before its change
// said "argument meta of type dict can't be passed to a kernel", not what to write instead. The kernel written as the
// message says runs (softmax.py's forward, causal or not, rows off the block).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("lucidrains/triton-transformer's idioms: a kernel's **meta refused saying what to write, its softmax with BLOCK_SIZE: tl.constexpr; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/triton-transformer-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /\*\*meta: softmax_kernel_forward's parameter \*\*meta isn't a kernel parameter \(Triton 1\.x's meta-parameters\); declare each one, `BLOCK_SIZE: tl\.constexpr`, and read it by name instead of meta\['BLOCK_SIZE'\]\nsoftmax, causal False: match\nsoftmax, causal True: match\n/);
  });
});
