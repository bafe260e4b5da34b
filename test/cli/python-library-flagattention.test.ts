// FlagOpen/FlagAttention's idioms (test/python/flagattention-idioms.py), on the GPU and with --cpu. Before:
// `torch.cuda.device_of(q)` (flash.py, piecewise.py, paged.py, split_kv.py, total.py: every launch is made under
// `with torch.cuda.device(torch.cuda.device_of(q)):`) was NotInKernelLab.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt, root } from "./build";
import { onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/flagattention-idioms.py");

test("FlagAttention's idioms: torch.cuda.device_of as a device and as a context; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(
      report.stdout,
      /with torch\.cuda\.device\(torch\.cuda\.device_of\(q\)\): launch, get_device_properties\(device_of\(q\)\): match\n/,
    );
  });
});

test("kernel-lab check on FlagAttention's idioms: clean", () => {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "check", file], { cwd: root, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /KL\d{4}/);
});
