// TransformerEngine's idioms (test/python/transformer-engine-idioms.py), on the GPU and with --cpu. Each
// failed before its change: `from triton.language.standard import _log2` was ModuleNotFoundError
// (and its call in a kernel, like `core.get_int_dtype(…)` bound at module level and wrapped in
// triton.constexpr_function on Triton ≥ 3.5, was no function Kernel Lab knew); a block's `.numel` was
// KL1101; `tl.full(x.shape, …)` was KL1041 (a shape had to be written as a list); a reshape to four
// axes held in a name for a later tl.split (mhc.py's `x = tl.reshape(x, (M, C, 2, 2))`) was KL1040,
// and tl.dot of [4, 1, 64] × [4, 64, 4] was KL2015 (every extent ≥ 16, an older Triton's rule).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("TransformerEngine's idioms: _log2 and core.get_int_dtype evaluated while compiling, a block's .numel, tl.full of a block's shape, a held four-axis reshape split later, tl.dot of one row; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/transformer-engine-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 3 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /_log2, core\.get_int_dtype, x\.numel and tl\.full\(x\.shape\): match\na reshape to four axes held and split, tl\.dot of one row: match\n/);
  });
});
