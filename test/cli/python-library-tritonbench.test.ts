// meta-pytorch/tritonbench's idioms (test/python/tritonbench-idioms.py), on the GPU and with --cpu. Before: operators/
// sum/kernels.py's `tl.load(…, mask=mask, other=mask)` was KL2003 (Triton casts `other` to the element type: 0 where
// masked off), and its `idxs, mask = None, None` before constexpr branches that bind both was KL1101. operators/
// int4_gemm/kernel.py's `tl.static_assert(b.dtype == tl.int8)` on loaded bytes was KL2074 (their dtype read int32)
// and its `tl.full((1,), 4, dtype=tl.int8)` KL2080. And `check` of the idiom's launch inside `for dim in (0, 1):` took
// dim as unknown (KL1022: neither constexpr branch binds idxs); it now checks each value. kernels/profile.py's helpers
// ending in `if IS_HIP: return … elif IS_CUDA: return … else: tl.static_assert(False, …)` were KL1071, their
// `IS_CUDA = tl.constexpr(is_cuda())` KL1006, and a call of one from another module of tritonbench (a package whose name
// starts with "triton", its imports taken for Triton's) KL1004.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/tritonbench-idioms.py");

test("tritonbench's idioms: tl.load's other=mask; `a, b = None, None` bound by constexpr branches; int8 loads' dtype, tl.full of tl.int8 and 8-bit shifts; module constexprs bound by host calls, a helper of a package named triton… with an elif chain of returns; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 4 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /other=mask and a tuple of Nones bound by constexpr branches: match\nint8 loads are tl\.int8; tl\.full\(…, dtype=tl\.int8\) and 8-bit shifts sign-extend nibbles: match\nmodule constexprs bound by host calls; a helper of a package named triton…, ending in an elif chain of returns: match\n/);
  });
});

test("kernel-lab check on tritonbench's idioms (a launch in a loop over literal constexprs checked with each): clean", () => checksClean(file));
