// flashinfer's idioms (test/python/flashinfer-idioms.py with test/python/flashinfer_kit/), on the GPU and with --cpu.
// It failed before its change: a kernel launched from a module beside the script was compiled from that module's
// text without the run's word on which definitions Python bound, so a @triton.jit helper defined in both branches
// of a module-level `if` (ssd_chunk_state.py's `softplus` under `if TRITON3:` / `else:`) was read as the last one,
// the branch Python didn't take, and its tl.math.log1p stopped the compile (KL1005; log1p runs since, so the kit's other branch now uses inline PTX, refused too).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("flashinfer's idioms: a helper defined per branch of a module-level if, in the launched kernel's own module; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/flashinfer-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /a helper defined in both branches of a module-level if, called by a kernel of that module: match\n/);
  });
});
