// vllm's Triton kernels' idioms (test/python/vllm-idioms.py), on the GPU and with --cpu: a
// parenthesized tuple target written one name a line, `(seq_idx, start, length) = helper(…)`, was
// lowered as one nested pattern (KL1044 "this pattern names 1 element but the tuple has 3"), and
// `torch.finfo(torch.float8_e4m3fn)`, which triton_unified_attention.py reads at import for its
// FP8_MIN / FP8_MAX constexpr defaults, was NotImplementedError. prefix_prefill.py's: `tl.math.exp`
// with `tl` imported from another module (vllm.triton_utils) was KL1150, `k.dtype.is_fp8()` KL1005,
// and a name first assigned in a loop and assigned again after it at another shape KL2076.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { runPythonFile, stopPython } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";

after(stopPython);

test("vllm's idioms: parenthesized tuple targets, finfo of float8, tl.math through an imported tl, dtype.is_fp8(), a name rebound after its loop; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/vllm-idioms.py");
  for (const cpu of [false, true]) {
    const { report, outcome } = await runPythonFile(file, { bench: "off", cpu }, startPythonThread);
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length >= 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /parenthesized tuple targets, finfo of float8: match\ntl\.math through an imported tl, dtype\.is_fp8\(\), a name rebound after its loop: match\n/);
  }
});
