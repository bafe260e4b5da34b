// casper-hansen/AutoAWQ's Triton GEMM idioms (test/python/autoawq-idioms.py), on the GPU and with --cpu. Before:
// `tl.interleave(w, w)` (awq_dequantize_kernel / awq_gemm_kernel spread each packed int32 word over 8 columns so)
// staged the same block twice in workgroup memory, so awq_dequantize_triton's default 32×32 blocks needed 33 280 bytes
// (KL2016 past lavapipe's 32 768); a block joined with itself is now staged once (16 896).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/autoawq-idioms.py");

test("AutoAWQ's idioms: tl.interleave(w, w) three times staged once, nibbles by AWQ's shifts; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /tl\.interleave\(w, w\) x3, AWQ's nibble order by shifts, scales broadcast: 37x45 words -> 37x360 match\n/);
  });
});

test("kernel-lab check on AutoAWQ's idioms: clean", () => checksClean(file));
