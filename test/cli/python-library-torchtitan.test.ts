// pytorch/torchtitan's idioms (test/python/torchtitan-idioms.py), on the GPU and with --cpu. Before: a kernel whose
// parameters are annotated `x: tl.pointer_type(tl.int64)` (minimal_async_ep/kernels.py) stopped its module's import
// with TypeError, pointer_type() takes no arguments: Python evaluates annotations when the function is defined. And
// fused_swiglu.py's `from torch.distributed.tensor.experimental import local_map` had no module to import, and
// fused_mla.py's `@torch.library.custom_op(…, tags=torch.Tag.inplace)` had no torch.Tag.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/torchtitan-idioms.py");

test("torchtitan's idioms: parameters annotated tl.pointer_type(tl.int64), tl.int64 and -> None; local_map imported and called on plain tensors; a custom op with tags=torch.Tag.inplace; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 3 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /parameters annotated tl\.pointer_type\(tl\.int64\) and tl\.int64: match\ntorch\.distributed\.tensor\.experimental\.local_map on plain tensors: the function\na custom op registered with tags=torch\.Tag\.inplace: match\n/);
  });
});

test("kernel-lab check on torchtitan's idioms: clean", () => checksClean(file));
