// Idioms of Triton's own language tests (test/python/triton-tests-idioms.py), on the GPU and with --cpu. Before: a
// @triton.jit kernel defined inside a function (each of test_core.py's tests defines its own) was KL1104 at line 1,
// `JITFunction._unsafe_update_src` (its patch_kernel) an AttributeError, and the second of two kernels of one name
// defined in two functions ran the first's text; test_compare_op's int8 with uint8 compared the int8's value where
// Triton promotes both to uint8; test_random.py's `tl.random.uint_to_uniform_float(x)` was KL1040 ("got 2
// arguments") and its `triton.compiler.errors.CompilationError` an AttributeError; a torch.int64 tensor of values past
// 32 bits held their low words.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/triton-tests-idioms.py");

test("Triton's tests' idioms: kernels defined inside functions and patched with _unsafe_update_src, two of one name; int8 with uint8 compared as uint8; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.map((d) => d.code), ["KL2003"]); // the float seed, caught
    assert.ok(report.checks.length === 3 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /kernels defined inside functions, patched with _unsafe_update_src, two of one name: match\nint8 with uint8 compares as uint8: match\ntl\.random\.uint_to_uniform_float's limits, triton\.compiler\.errors\.CompilationError: match\ntorch\.int64 past 32 bits: refused\n/);
  });
});
