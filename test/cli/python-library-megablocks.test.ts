// databricks/megablocks' Triton kernels (test/python/megablocks-idioms.py with test/python/megablocks_kit/), on the GPU
// and with --cpu: every entry point of backend/kernels.py, unchanged, ran and matched the first time (no change of
// Kernel Lab's came with it); this keeps them so.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("databricks/megablocks' kernels as published: gather, padded gather / scatter, their weight gradients, binned gather / scatter; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/megablocks-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /gather: match\npadded_gather: match\npadded_scatter: match\ngather \(weights\): match\npadded_gather \(weights\): match\npadded_scatter \(weights\): match\nscatter_wgrad: match\nbinned_gather: match\nbinned_scatter: match\nbinned_scatter_wgrad: match\n/);
  });
});
