// The bf16 ports re-driven (bench/NOTES.md §77): idioms of the libraries' bf16 kernels that Kernel Lab got wrong or
// refused, in scripts of ours (test/python/*-bf16-idioms.py), on the GPU and with --cpu, and `check`ed clean.
// flash-backward-bf16-idioms.py: FlagAttention's `_bwd_kv_kernel` and applied-ai's `_bwd_kernel_dk_dv` hand tl.dot a
// conversion of a transpose (`tl.dot(tl.trans(p).to(input_dtype), do)`; a bf16 `tl.trans(ds)` widened to f32): that
// transpose was staged in workgroup memory of its own, KL2016 at --cpu's 16 KiB where the same kernel in f32 fits.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const flashBwd = path.resolve(__dirname, "../python/flash-backward-bf16-idioms.py");

test("flash backward in bf16 and f16: tl.dot of a converted transpose stays a transpose the dot stages; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(flashBwd, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 4 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    for (const dt of ["bfloat16", "float16"]) assert.match(report.stdout, new RegExp(`tl\\.dot\\(tl\\.trans\\(ds\\), q\\) in ${dt}: 50x16 over 100 rows match\\n`));
  });
});

test("kernel-lab check on the flash backward bf16 idioms: clean", () => checksClean(flashBwd));
