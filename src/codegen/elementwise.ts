// The WGSL of element-wise functions, one entry per function: given the operands' registers as
// WGSL expressions, the expression of the result's register.

import type { BinaryFn, Dtype, MathFn, UnaryFn } from "../ir/ir";
import { SPECIAL_MATH_WGSL } from "./special-math";

export const UNARY_WGSL: Record<UnaryFn, (x: string, dtype: Dtype) => string> = {
  neg: (x, dtype) => (dtype === "u32" ? `(0u - ${x})` : `(-${x})`),
  not: (x) => `(!${x})`,
  bitnot: (x) => `(~${x})`,
};

/** WGSL takes shift amounts as u32, and only their low 5 bits mean anything on 32-bit values. */
const shiftAmount = (b: string, rhsDtype: Dtype) => `${rhsDtype === "u32" ? b : `u32(${b})`} & 31u`;

/**
 * A shift of a 32-bit integer by an amount that may be 32 or more (negative: a huge unsigned one) gives what it does
 * in Triton on NVIDIA (PTX `shl` / `shr` clamp the amount at 32) and in Triton's interpreter (numpy's shifts): 0, or
 * the sign for an i32's `>>`; WGSL would take the amount modulo 32. FBGEMM's MX4 quantizer shifts a mantissa right by
 * up to 45 to flush a tiny value to 0. A literal amount below 32 is the plain shift.
 */
const clampedShift = (a: string, b: string, rhsDtype: Dtype, lhsDtype: Dtype | undefined, left: boolean) => {
  const literal = /^(\d+)[iu]?$/.exec(b);
  if (literal && Number(literal[1]) < 32) return `(${a} ${left ? "<<" : ">>"} (${shiftAmount(b, rhsDtype)}))`;
  const amount = rhsDtype === "u32" ? b : `u32(${b})`;
  if (!left && lhsDtype !== "u32") return `(${a} >> min(${amount}, 31u))`;
  return `select(${a} ${left ? "<<" : ">>"} (${amount} & 31u), ${lhsDtype === "u32" ? "0u" : "0i"}, ${amount} > 31u)`;
};

/**
 * An i64's shift by 32 or more means something (`offset >> 32` is its high word): on its i32
 * register (ir/int64.ts) `>>` by 31 gives the sign, `<<` gives 0.
 */
const int64Shift = (a: string, b: string, rhsDtype: Dtype, left: boolean) => {
  const amount = rhsDtype === "u32" ? b : `u32(${b})`;
  return left ? `select(${a} << (${amount} & 31u), 0i, ${amount} > 31u)` : `(${a} >> min(${amount}, 31u))`;
};

/** `lhsDtype`: the IR's, where an i64 differs from its i32 register (shifts). */
export const BINARY_WGSL: Record<BinaryFn, (a: string, b: string, rhsDtype: Dtype, lhsDtype?: Dtype) => string> = {
  add: (a, b) => `(${a} + ${b})`,
  sub: (a, b) => `(${a} - ${b})`,
  mul: (a, b) => `(${a} * ${b})`,
  div: (a, b) => `(${a} / ${b})`,
  mod: (a, b) => `(${a} % ${b})`,
  and: (a, b) => `(${a} & ${b})`,
  or: (a, b) => `(${a} | ${b})`,
  xor: (a, b) => `(${a} ^ ${b})`,
  shl: (a, b, rhsDtype, lhsDtype) => (lhsDtype === "i64" ? int64Shift(a, b, rhsDtype, true) : clampedShift(a, b, rhsDtype, lhsDtype, true)),
  shr: (a, b, rhsDtype, lhsDtype) => (lhsDtype === "i64" ? int64Shift(a, b, rhsDtype, false) : clampedShift(a, b, rhsDtype, lhsDtype, false)),
  lt: (a, b) => `(${a} < ${b})`,
  le: (a, b) => `(${a} <= ${b})`,
  gt: (a, b) => `(${a} > ${b})`,
  ge: (a, b) => `(${a} >= ${b})`,
  eq: (a, b) => `(${a} == ${b})`,
  // A float's != as not-equal: true where either side is NaN (IEEE, Triton, torch). WGSL lets a
  // compiler assume floats are never NaN, and lavapipe's `NaN != NaN` and `NaN != 0.0` were false
  // while its `==` was right, so floats compare through `==` (`x != x` is Triton's NaN test).
  ne: (a, b, rhsDtype) => (rhsDtype === "f32" || rhsDtype === "f16" ? `(!(${a} == ${b}))` : `(${a} != ${b})`),
  land: (a, b) => `(${a} && ${b})`,
  lor: (a, b) => `(${a} || ${b})`,
};

/** `t` is the result's WGSL type. */
export const MATH_WGSL: Record<MathFn, (args: readonly string[], t: string) => string> = {
  exp: (args) => `exp(${args.join(", ")})`,
  log: (args) => `log(${args.join(", ")})`,
  sqrt: (args) => `sqrt(${args.join(", ")})`,
  rsqrt: (args) => `inverseSqrt(${args[0]})`,
  abs: (args) => `abs(${args.join(", ")})`,
  sin: (args) => `sin(${args.join(", ")})`,
  cos: (args) => `cos(${args.join(", ")})`,
  floor: (args) => `floor(${args.join(", ")})`,
  ceil: (args) => `ceil(${args.join(", ")})`,
  sigmoid: (args, t) => `(${t}(1) / (${t}(1) + exp(-${args[0]})))`,
  maximum: (args) => `max(${args[0]}, ${args[1]})`,
  minimum: (args) => `min(${args[0]}, ${args[1]})`,
  fma: (args) => `fma(${args.join(", ")})`,
  ...SPECIAL_MATH_WGSL,
};
