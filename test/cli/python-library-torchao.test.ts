// pytorch/ao's (torchao's) idioms (test/python/torchao-idioms.py), on the GPU and with --cpu. Before:
// `torch.library.Library("torchao", "FRAGMENT")` (quantized_training/int8_mm.py, at import) and `torch.clamp_min`
// (moe_training/ep/kernels.py) were NotInKernelLab and there was no `torch.ops`; `tl.PropagateNan.ALL`
// (nvfp4_training's amax kernels) was KL1101 "the attribute '.ALL'", and propagate_nan was ignored; `tl.atomic_max`
// on a float32 amax buffer (group_weight_amax_triton.py) was KL2003 (only integer atomic max/min).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/torchao-idioms.py");

test("torchao's idioms: torch.library.Library + impl called through torch.ops, torch.clamp_min, tl.PropagateNan.ALL, f32 tl.atomic_max/min; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 5 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(
      report.stdout,
      /torch\.ops\.kl_torchao\.row_scaled_copy, torch\.clamp_min: match\ntl\.maximum\(acc, x, propagate_nan=tl\.PropagateNan\.ALL\): NaN rows NaN, the others their amax: match\ntl\.atomic_max\(amax_ptr \+ group, tl\.max\(tl\.abs\(w\)\)\) on float32, tl\.atomic_min\(sem='relaxed'\): match\n/,
    );
  });
});

test("kernel-lab check on torchao's idioms: clean", () => checksClean(file));
