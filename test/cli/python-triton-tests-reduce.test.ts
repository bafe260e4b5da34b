// Reduction and scan idioms of Triton's own language tests (test/python/triton-tests-reduce-idioms.py), on the GPU and
// with --cpu. Before: `tl.sum(x, axis=AXIS)` with a constexpr AXIS=None reduced axis 0 only (test_reduce), an axis past
// the block's was no `triton.TritonError`, tl.xor_sum of a mask was KL2003, `tl.sum(x, dtype=tl.int1)` KL1040 and
// `dtype=tl.int8` kept 32 bits (test_sum_dtype), tl.cumsum of bf16 summed in bf16 (test_scan2d), and torch.std /
// torch.var_mean were not in Kernel Lab's torch; `tl.atomic_cas(Lock, 0, 1, SEM)` (Triton's order: no mask) was KL1003.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/triton-tests-reduce-idioms.py");

test("Triton's tests' reduction idioms: axis=None constexpr, TritonError, xor_sum of a mask, sum in int1 / int8, bf16 cumsum in f32, torch.std, atomic_cas's positional sem; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.map((d) => d.code), ["KL2012"]); // the axis past the block's, caught
    assert.match(
      report.stdout,
      /axis=None constexpr reduces every axis; triton\.TritonError: match\ntl\.xor_sum of a mask, tl\.sum in int1 and int8: match\ntl\.cumsum of bf16 in f32: match\ntorch\.std, torch\.var_mean, torch\.std_mean: match\ntl\.atomic_cas's positional sem: match\n/,
    );
  });
});
