// microsoft/MInference's block-sparse attention (test/python/minference-idioms.py with test/python/minference_kit/), on
// the GPU and with --cpu: block_sparse_attention of ops/block_sparse_flash_attention.py, unchanged, against dense
// causal attention over the blocks it picks. Before, the module's import stopped at its unused `import numpy as np`
// (ModuleNotFoundError: lib/numpy.py now imports, and refuses any name read from it), then at `p_pool.where(…)`
// (NotInKernelLab "torch.Tensor.where").

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("MInference's block-sparse attention as published: block_sparse_attention (pooled top-k block index, Triton fp16 kernel); on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/minference-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /block_sparse_attention: match\n/);
  });
});
