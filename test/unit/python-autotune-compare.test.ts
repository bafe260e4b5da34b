// The check every knob setting of a Python @triton.autotune passes before it is timed
// (harness/python/autotune.ts firstDifference): its outputs against the default knobs' checked
// launch, f16 compared as values (not bits), f32 within a small tolerance, integers exactly.

import { test } from "node:test";
import assert from "node:assert/strict";
import { firstDifference } from "../../src/harness/python/autotune";
import { f16ToBits } from "../../src/ir/f16";

test("f16 outputs are compared as values: a rounding step apart matches, a wrong element is named", () => {
  const want = Uint16Array.from([1.5, -2, 1000, 0.25], f16ToBits);
  const close = Uint16Array.from(want, (b, i) => (i === 2 ? b + 1 : b)); // 1000 → 1000.5: within 1e-3 relative
  assert.equal(firstDifference(close, want, "f16"), undefined);
  const wrong = Uint16Array.from([1.5, -2, 1000, 0.5], f16ToBits);
  assert.deepEqual(firstDifference(wrong, want, "f16"), { index: 3, got: 0.5, want: 0.25 });
  // Bits that differ in sign only are a difference (−0.25 against 0.25), NaN matches NaN.
  assert.ok(firstDifference(Uint16Array.from([1.5, -2, 1000, -0.25], f16ToBits), want, "f16"));
  assert.equal(firstDifference(Uint16Array.from([NaN], f16ToBits), Uint16Array.from([NaN], f16ToBits), "f16"), undefined);
});

test("f32 within 1e-4 relative (1e-5 absolute) matches; integers must be equal", () => {
  assert.equal(firstDifference(Float32Array.from([1.00001, 0]), Float32Array.from([1, 0.000001]), "f32"), undefined);
  assert.deepEqual(firstDifference(Float32Array.from([1, 2.001]), Float32Array.from([1, 2]), "f32")?.index, 1);
  assert.deepEqual(firstDifference(Int32Array.from([3, 4]), Int32Array.from([3, 5]), "i32"), { index: 1, got: 4, want: 5 });
  assert.equal(firstDifference(Float32Array.from([NaN]), Float32Array.from([1]), "f32")?.index, 0);
});
