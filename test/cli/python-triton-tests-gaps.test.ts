// Idioms of Triton's own language tests that Kernel Lab refused or accepted wrongly (bench/NOTES.md §88's "Left",
// test/python/triton-tests-gaps-idioms.py), on the GPU and with --cpu. Before: tl.atomic_add / tl.atomic_cas of f16 were
// KL2003 (test_atomic_rmw, test_tensor_atomic_rmw …), tl.topk KL1005 (test_sort), a tuple constexpr passed by position
// KL1003 (test_reshape), tl.expand_dims(scalar, 1) and the duplicate axes (0, 0), (0, -3) compiled
// (test_expand_dims_error_cases), a positional None (`tl.sum(x, None)`) KL1101.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/triton-tests-gaps-idioms.py");

test("Triton's tests' gaps: f16 atomic_add / atomic_cas, tl.topk, a tuple constexpr to tl.reshape, tl.expand_dims's errors, a positional None, tl.max of 16-bit floats in f32; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    // The refusals the file catches: tl.atomic_max of f16 (KL2003), the three tl.expand_dims errors (KL2012).
    assert.deepEqual(report.diagnostics.map((d) => d.code), ["KL2003", "KL2012", "KL2012", "KL2012"]);
    assert.match(
      report.stdout,
      /tl\.atomic_add of f16: .*: match\ntl\.atomic_cas of f16: .*: match\ntl\.atomic_max of f16 refused, as Triton refuses it: match\ntl\.topk .*: match\ntl\.reshape\(x, out_tuple\) .*: match\ntl\.expand_dims of a scalar past axis 0, .*: match\na positional None is the default .*: match\ntl\.max of f16 and bf16 is f32, x - max computed in f32: match\n/,
    );
  });
});
