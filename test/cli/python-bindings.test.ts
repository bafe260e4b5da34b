// A kernel at the adapter's storage-buffer limit (test/python/assert-bindings.py). The correctness launch's
// instrumented variant binds a buffer for its checks and one per stored output; a tl.device_assert binds its record
// buffer. Before, that record buffer was left out of the count: 13 pointer parameters, two stored, and an assert made
// 17 bindings on lavapipe's 16, and Dawn answered "[Invalid PipelineLayout] is invalid due to a previous error". Now
// the run checks bounds at the grid's corners instead, as for any kernel whose checks don't fit; and a kernel past the
// limit whatever the check says so, with what to do.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu, PY, run } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.join(PY, "assert-bindings.py");

test("13 pointer parameters, two stored, and a device_assert: the run matches float64, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error").map((d) => d.code), []);
    assert.match(report.stdout, /^eleven inputs, two outputs, an assert: match\n$/);
  });
});

test("16 pointer parameters and a device_assert on lavapipe (16 storage buffers a kernel): the bindings counted, and what to do", async () => {
  process.env.WIDE = "1";
  try {
    const gpu = await run(file, { bench: "off" });
    assert.notEqual(gpu.outcome, "ok");
    assert.match(
      gpu.report.traceback ?? "",
      /Kernel 'sum_of_fifteen' binds 17 storage buffers \(16 for its pointer parameters and the record buffer of its tl\.device_print \/ tl\.device_assert\); this adapter binds at most 16 per kernel\. Take its print and assert calls out, pass fewer tensors \(several in one\), or run it with --cpu\./,
    );
    const cpu = await run(file, { bench: "off", cpu: true });
    assert.equal(cpu.outcome, "ok", cpu.report.traceback);
    assert.match(cpu.report.stdout, /fifteen inputs, one output, an assert: ran\n/);
  } finally {
    delete process.env.WIDE;
  }
});
