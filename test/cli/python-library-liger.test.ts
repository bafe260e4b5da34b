// Liger-Kernel's idioms (test/python/liger-idioms.py), on the GPU and with --cpu. It failed before its change:
// with several autotune configs and nothing timed (--bench off, --cpu), the probe that picks the first config
// that fits compiled each config without running its Config(pre_hook=…), so mlp.py's TensorDescriptors kept
// their dummy [1, 1, 1] block shape there and the compile stopped at KL2017 (a reshape of f32[1, 1, 1]);
// a name assigned at two block shapes in an if's two branches and dead after it (fused_moe_kernels.py's
// `offs` under `if pid < E:` / `elif pid == E:`) was one variable, KL2076 "every branch must give it the same";
// a kernel inside a class (kakaobrain/trident's layout) was KL1104 "no @triton.jit function named 'forward' (found: none)",
// and now runs.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("Liger-Kernel's idioms: a Config's pre_hook sets descriptor block shapes before the untimed probe, a name per branch, a kernel inside a class launched; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/liger-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 3 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /Config\(pre_hook=…\) setting descriptor block shapes, untimed: match\na name assigned at two block shapes in exclusive branches, dead after them: match\na kernel inside a class: match\n/);
  });
});
