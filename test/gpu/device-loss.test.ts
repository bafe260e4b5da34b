// A GPU device lost in the middle of a run (Dawn's device.destroy(), as a driver reset would do):
// the run is reported with KL4002 naming it, and the next run in the same process gets a fresh
// device and works — nothing to restart. docs/RELIABILITY.md lists this row.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { runFileWithOutcome } from "../../src/harness/run/run";
import { acquireGpu } from "../../src/runtime";

process.env.XDG_RUNTIME_DIR ??= "/tmp";
const FILE = path.resolve(__dirname, "../../examples/vector-add.kernel.ts");

test("a device lost mid-run is reported as KL4002; the next run gets a new device and matches", async () => {
  const gpu = await acquireGpu();
  const lost = await runFileWithOutcome(FILE, {
    size: 5000,
    reps: 5,
    onProgress: (p) => {
      if (p.phase === "time") gpu.device.destroy();
    },
  });
  assert.equal(lost.outcome, "failure");
  const [d] = lost.report.diagnostics;
  assert.equal(d?.code, "KL4002", JSON.stringify(lost.report.diagnostics));
  assert.match(d.message, /^Run 'vectorAdd': The GPU device was lost/);

  const next = await runFileWithOutcome(FILE, { size: 5000, reps: 5 });
  assert.equal(next.outcome, "ok", JSON.stringify(next.report.diagnostics));
  assert.equal(next.report.runs[0].correct, true);
  assert.notEqual((await acquireGpu()).device, gpu.device);
});
