// Idioms of Triton's own language tests' unary / math / cast / load tests (test/python/triton-tests-math-idioms.py),
// on the GPU and with --cpu. Before: test_cast's int8 <-> uint8 bitcast was KL2003; tl.math.div_rn was 1 ULP off on
// lavapipe for about 1 quotient in 10 (its fma is not fused); a bool constexpr mask (test_masked_load_scalar) was KL2003;
// `tl.static_assert(a.shape == [128])` (test_full) KL1043; `getattr(tl, func)(…, propagate_nan=getattr(tl.PropagateNan,
// mode))` (test_propagate_nan) KL1004; and `except triton.TritonError` an AttributeError.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/triton-tests-math-idioms.py");

test("Triton's tests' math idioms: int8 <-> uint8 bitcast, div_rn correctly rounded, a bool constexpr mask, shapes compared with lists, getattr(tl, func), triton.TritonError, float('-nan'), Tensor.data; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.map((d) => d.code), ["KL2012"]); // program_id(20), caught
    assert.match(
      report.stdout,
      /int8 <-> uint8 bitcast: match\ntl\.math\.div_rn correctly rounded: match\na bool constexpr mask: match\nshapes compared with lists: match\ngetattr\(tl, func\), getattr\(tl\.PropagateNan, mode\): match\ntriton\.TritonError: caught\nfloat\(.-nan.\) in a kernel, Tensor\.data: match\n/,
    );
  });
});
