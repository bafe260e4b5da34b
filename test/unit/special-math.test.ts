// The interpreter's side of issue 11's math (ir/special-math.ts): erf's stated error bound against
// a float64 erf, the functions' dtypes and edges; and KL1005's suggestions (semantics/unknown-intrinsic.ts).

import { test } from "node:test";
import assert from "node:assert/strict";
import { SPECIAL_MATH_ARITHMETIC, erfApprox } from "../../src/ir/special-math";
import { unknownIntrinsicMessage } from "../../src/semantics/unknown-intrinsic";

/** erf in float64: the Maclaurin series (to ~1e-12 for |x| < 4); ±1 beyond (erfc(4) < 2e-8). */
function erf64(x: number): number {
  if (Math.abs(x) >= 4) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 120; n++) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

test("erf's approximation: |error| ≤ 1.5e-7 on [-6, 6], relative ≤ 3e-8 below |x| = 0.5 (in doubles)", () => {
  let worst = 0;
  let worstRelative = 0;
  for (let x = -6; x <= 6; x += 1e-3) {
    const error = Math.abs(erfApprox(x) - erf64(x));
    worst = Math.max(worst, error);
    if (Math.abs(x) < 0.5 && x !== 0) worstRelative = Math.max(worstRelative, error / Math.abs(erf64(x)));
  }
  assert.ok(worst <= 1.5e-7, `max error ${worst}`);
  assert.ok(worstRelative <= 3e-8, `max relative error below 0.5: ${worstRelative}`);
  assert.equal(erfApprox(0), 0);
  assert.ok(Number.isNaN(erfApprox(NaN)));
  assert.equal(SPECIAL_MATH_ARITHMETIC.erf.op("f32")!(0.5), Math.fround(erfApprox(0.5)));
});

test("float functions round to their dtype and have no integer version", () => {
  const exp2 = SPECIAL_MATH_ARITHMETIC.exp2;
  assert.equal(exp2.op("f32")!(0.1), Math.fround(2 ** 0.1));
  assert.equal(exp2.op("f16")!(0.1), 1.0712890625); // the nearest half to 1.07177
  for (const fn of ["exp2", "log2", "tanh", "erf", "pow"] as const) assert.equal(SPECIAL_MATH_ARITHMETIC[fn].op("i32"), undefined, fn);
  assert.equal(SPECIAL_MATH_ARITHMETIC.umulhi.op("f32"), undefined);
});

test("pow is C's powf: negative bases with integer exponents, 0^y, x^0", () => {
  const pow = SPECIAL_MATH_ARITHMETIC.pow.op("f32")!;
  assert.equal(pow(-2, 3), -8);
  assert.equal(pow(-2, 2), 4);
  assert.ok(Number.isNaN(pow(-2, 0.5)));
  assert.equal(pow(0, -1), Infinity);
  assert.equal(pow(0, 2), 0);
  assert.equal(pow(7, 0), 1);
});

test("umulhi: the unsigned product's high word; on i32 its bits as i32", () => {
  assert.equal(SPECIAL_MATH_ARITHMETIC.umulhi.op("u32")!(0xffffffff, 0xffffffff), 0xfffffffe);
  assert.equal(SPECIAL_MATH_ARITHMETIC.umulhi.op("i32")!(-1, -1), -2);
  assert.equal(SPECIAL_MATH_ARITHMETIC.umulhi.op("i32")!(0x10000, 0x10000), 1);
});

test("clamp is min(max(x, lo), hi); a NaN x gives lo (WGSL's max)", () => {
  const clamp = SPECIAL_MATH_ARITHMETIC.clamp.op("f32")!;
  assert.equal(clamp(5, 0, 1), 1);
  assert.equal(clamp(-5, 0, 1), 0);
  assert.equal(clamp(NaN, 0, 1), 0);
  assert.equal(SPECIAL_MATH_ARITHMETIC.clamp.op("i32")!(-7, -3, 3), -3);
});

test("KL1005 suggests the camelCase name for Triton's snake_case, and the nearest name for a typo", () => {
  for (const [snake, camel] of [["program_id", "programId"], ["num_programs", "numPrograms"], ["expand_dims", "expandDims"], ["broadcast_to", "broadcastTo"]]) {
    assert.match(unknownIntrinsicMessage(snake), new RegExp(`^tl\\.${snake} doesn't exist; did you mean tl\\.${camel}\\?`));
  }
  assert.match(unknownIntrinsicMessage("device_print"), /did you mean tl\.devicePrint\?/);
  assert.match(unknownIntrinsicMessage("static_range"), /did you mean tl\.staticRange\?/);
  assert.match(unknownIntrinsicMessage("multiple_of"), /did you mean tl\.multipleOf\?/);
  // Triton functions with no WGSL meaning say so (docs/LANGUAGE.md §2.1).
  assert.match(unknownIntrinsicMessage("inline_asm_elementwise"), /assembly, which WGSL can't express/);
  assert.match(unknownIntrinsicMessage("dot_scaled"), /microscaled/);
  // tl.make_tensor_descriptor in snake_case is the camelCase function (tensor descriptors have a WGSL meaning).
  assert.match(unknownIntrinsicMessage("make_tensor_descriptor"), /did you mean tl\.makeTensorDescriptor\?/);
  assert.match(unknownIntrinsicMessage("sigmod"), /did you mean tl\.sigmoid\?/);
  assert.equal(unknownIntrinsicMessage("foo"), "tl.foo doesn't exist; see the kernel language table in the docs for the tl.* functions");
});
