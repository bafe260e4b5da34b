// FlagOpen/FlagAttention's idioms (test/python/flagattention-idioms.py), on the GPU and with --cpu. Before:
// `torch.cuda.device_of(q)` (flash.py, piecewise.py, paged.py, split_kv.py, total.py: every launch is made under
// `with torch.cuda.device(torch.cuda.device_of(q)):`) was NotInKernelLab; so were `torch.cuda.default_generators`
// and `Tensor.view(torch.int64)` of an int64 tensor (dropout.py's philox_cuda_seed_offset, which seeds the dropout of
// flash.py's kernels and reserves their offsets).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/flagattention-idioms.py");

test("FlagAttention's idioms: torch.cuda.device_of as a device and as a context, torch.cuda.default_generators' seed and offset for tl.rand; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 2 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(
      report.stdout,
      /with torch\.cuda\.device\(torch\.cuda\.device_of\(q\)\): launch, get_device_properties\(device_of\(q\)\): match\ntorch\.cuda\.default_generators\[0\]\.get_state\(\)\.view\(torch\.int64\), c1 \+= increment, set_state: seed 7, offsets 0 then 1004; tl\.rand\(seed, offset \+ offs\) drawn again from them: match\n/,
    );
  });
});

test("kernel-lab check on FlagAttention's idioms: clean", () => checksClean(file));
