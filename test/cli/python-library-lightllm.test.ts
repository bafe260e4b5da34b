// lightllm's idioms (test/python/lightllm-idioms.py), on the GPU and with --cpu. Each failed before its
// change: two masks multiplied (silu_and_mul.py's `(n < size_n)[None, :] * (m < size_m)[:, None]`) was
// KL2003 "masks combine with && and ||", where Triton keeps int1 * int1 an int1;
// torch.cuda.is_current_stream_capturing() (gqa_flash_decoding_vsm.py's host code) was NotInKernelLab.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("lightllm's idioms: two masks multiplied, torch.cuda.is_current_stream_capturing; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/lightllm-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /two masks multiplied, a 2-D mask: match\ntorch\.cuda\.is_current_stream_capturing\(\): False: match\n/);
  });
});
