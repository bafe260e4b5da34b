// kernl's Triton kernels' idioms (test/python/kernl-idioms.py), on the GPU and with --cpu. Each
// failed before its change: `from torch.autograd.function import FunctionCtx` (every implementation
// file) was ModuleNotInKernelLab, torch.autograd being an attribute, not a module.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { runPythonFile, stopPython } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";

after(stopPython);

test("kernl's idioms: torch.autograd.function as a module; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/kernl-idioms.py");
  for (const cpu of [false, true]) {
    const { report, outcome } = await runPythonFile(file, { bench: "off", cpu }, startPythonThread);
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length >= 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /torch\.autograd\.function imported as a module: match\n/);
  }
});
