// WGSL's scalar arithmetic on JS numbers, shared by the interpreter and constant folding: one
// function per (operation, dtype), chosen once per block operation and applied lane by lane.
// Every result is rounded the way the GPU holds it: f32 by Math.fround, f16 to the nearest half, bf16 to the nearest bf16,
// i32 wrapped (`| 0`, Math.imul), u32 `>>> 0`; bools are the numbers 0 and 1. `undefined` means the IR asked for an operation WGSL does not
// have on that dtype (a bug in the semantics pass; the interpreter reports it at the node).

import type { BinaryFn, Dtype, MathFn, SpecialMathFn, UnaryFn } from "./ir";
import { assertNever } from "./never";
import { roundF16 } from "./f16";
import { roundBf16 } from "./bf16";
import { maxFloat, minFloat } from "./float-min-max";
import { SPECIAL_MATH_ARITHMETIC } from "./special-math";
import { castToInt64, int64Binary, int64Unary } from "./int64";

export type ScalarFn1 = (a: number) => number;
export type ScalarFn2 = (a: number, b: number) => number;
export type ScalarFn3 = (a: number, b: number, c: number) => number;

export type UnaryMathFn = Exclude<MathFn, "maximum" | "minimum" | "fma" | SpecialMathFn>;

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;
const U32_MAX = 4294967295;

const toI32: ScalarFn1 = (a) => a | 0;
const toU32: ScalarFn1 = (a) => a >>> 0;
const toBool: ScalarFn1 = (a) => (a !== 0 ? 1 : 0);

function isFloat(dtype: Dtype): dtype is "f32" | "f16" | "bf16" {
  return dtype === "f32" || dtype === "f16" || dtype === "bf16";
}

/** How a value of `dtype` is held: the rounding every arithmetic result goes through. */
export function roundTo(dtype: Dtype): ScalarFn1 {
  switch (dtype) {
    case "f32":
      return Math.fround;
    case "f16":
      return roundF16;
    // Through f32 first, as the GPU's f32 result is rounded (semantics computes bf16 arithmetic in f32).
    case "bf16":
      return roundBf16;
    case "i32":
      return toI32;
    case "u32":
      return toU32;
    // Exact (ir/int64.ts): the interpreter checks each i64 value fits in 32 bits.
    case "i64":
      return (a) => a;
    case "bool":
      return toBool;
    default:
      return assertNever(dtype, "dtype");
  }
}

// WGSL, for non-constant operands: e1 / 0 is e1, and so is MIN / -1; e1 % 0 and MIN % -1 are 0.
const divI32: ScalarFn2 = (a, b) => (b === 0 || (a === I32_MIN && b === -1) ? a : Math.trunc(a / b) | 0);
const modI32: ScalarFn2 = (a, b) => (b === 0 || (a === I32_MIN && b === -1) ? 0 : (a % b) | 0);
const divU32: ScalarFn2 = (a, b) => (b === 0 ? a : Math.trunc(a / b) >>> 0);
const modU32: ScalarFn2 = (a, b) => (b === 0 ? 0 : (a % b) >>> 0);

const isInt = (dtype: Dtype) => dtype === "i32" || dtype === "u32" || dtype === "i64";

/**
 * Each binary function on two operands of `dtype` (the lhs dtype for shifts); comparisons and
 * logic give 0/1.
 */
const BINARY_32: Record<BinaryFn, (dtype: Dtype) => ScalarFn2 | undefined> = {
  add: (dtype) => {
    const round = roundTo(dtype);
    return isFloat(dtype) || isInt(dtype) ? (a, b) => round(a + b) : undefined;
  },
  sub: (dtype) => {
    const round = roundTo(dtype);
    return isFloat(dtype) || isInt(dtype) ? (a, b) => round(a - b) : undefined;
  },
  mul: (dtype) => {
    const round = roundTo(dtype);
    if (isFloat(dtype)) return (a, b) => round(a * b);
    // The exact product of two 32-bit integers can exceed 2^53: multiply modulo 2^32.
    if (dtype === "i32") return Math.imul;
    return dtype === "u32" ? (a, b) => Math.imul(a, b) >>> 0 : undefined;
  },
  div: (dtype) => {
    const round = roundTo(dtype);
    if (isFloat(dtype)) return (a, b) => round(a / b);
    if (dtype === "i32") return divI32;
    return dtype === "u32" ? divU32 : undefined;
  },
  mod: (dtype) => {
    const round = roundTo(dtype);
    // Floats: truncated remainder (the sign of the dividend), as JS `%`.
    if (isFloat(dtype)) return (a, b) => round(a % b);
    if (dtype === "i32") return modI32;
    return dtype === "u32" ? modU32 : undefined;
  },
  and: (dtype) => {
    const round = roundTo(dtype);
    return isFloat(dtype) ? undefined : (a, b) => round(a & b);
  },
  or: (dtype) => {
    const round = roundTo(dtype);
    return isFloat(dtype) ? undefined : (a, b) => round(a | b);
  },
  xor: (dtype) => {
    const round = roundTo(dtype);
    return isFloat(dtype) ? undefined : (a, b) => round(a ^ b);
  },
  // A shift amount of 32 or more (negative: a huge unsigned one) gives 0, or the sign for an i32's `>>`, as Triton on
  // NVIDIA (PTX clamps the amount) and its interpreter (numpy) do (codegen/elementwise.ts clampedShift); `>>` is
  // arithmetic on i32, logical on u32.
  shl: (dtype) => {
    const round = roundTo(dtype);
    return isInt(dtype) ? (a, b) => (b >>> 0 > 31 ? round(0) : round(a << b)) : undefined;
  },
  shr: (dtype) => {
    if (dtype === "i32") return (a, b) => a >> Math.min(b >>> 0, 31);
    return dtype === "u32" ? (a, b) => (b >>> 0 > 31 ? 0 : a >>> b) : undefined;
  },
  lt: () => (a, b) => (a < b ? 1 : 0),
  le: () => (a, b) => (a <= b ? 1 : 0),
  gt: () => (a, b) => (a > b ? 1 : 0),
  ge: () => (a, b) => (a >= b ? 1 : 0),
  eq: () => (a, b) => (a === b ? 1 : 0),
  ne: () => (a, b) => (a !== b ? 1 : 0),
  land: () => (a, b) => (a !== 0 && b !== 0 ? 1 : 0),
  lor: () => (a, b) => (a !== 0 || b !== 0 ? 1 : 0),
};

/** The functions above, an i64's exact ones first (ir/int64.ts). */
export const BINARY_ARITHMETIC = Object.fromEntries(
  Object.entries(BINARY_32).map(([fn, op]) => [fn, (dtype: Dtype) => (dtype === "i64" && int64Binary(fn as BinaryFn)) || op(dtype)]),
) as Record<BinaryFn, (dtype: Dtype) => ScalarFn2 | undefined>;

export function binaryOp(fn: BinaryFn, dtype: Dtype): ScalarFn2 | undefined {
  return BINARY_ARITHMETIC[fn](dtype);
}

const UNARY_32: Record<UnaryFn, (dtype: Dtype) => ScalarFn1 | undefined> = {
  // i32: -MIN wraps to MIN; u32: two's complement, as `0u - x`.
  neg: (dtype) => (dtype === "bool" ? undefined : (a) => roundTo(dtype)(-a)),
  not: (dtype) => (dtype === "bool" ? (a) => (a === 0 ? 1 : 0) : undefined),
  bitnot: (dtype) => {
    if (dtype === "i32") return (a) => ~a;
    if (dtype === "u32") return (a) => ~a >>> 0;
    // `~` on a mask is Triton's logical not.
    return dtype === "bool" ? (a) => (a === 0 ? 1 : 0) : undefined;
  },
};

export const UNARY_ARITHMETIC: Record<UnaryFn, (dtype: Dtype) => ScalarFn1 | undefined> = {
  neg: (dtype) => (dtype === "i64" && int64Unary("neg")) || UNARY_32.neg(dtype),
  not: UNARY_32.not,
  bitnot: (dtype) => (dtype === "i64" && int64Unary("bitnot")) || UNARY_32.bitnot(dtype),
};

export function unaryOp(fn: UnaryFn, dtype: Dtype): ScalarFn1 | undefined {
  return UNARY_ARITHMETIC[fn](dtype);
}

/** Element-wise conversion `from` -> `to`, as WGSL's value constructors `to(x)`. */
export function castOp(from: Dtype, to: Dtype): ScalarFn1 {
  if (to === "bool") return toBool;
  if (to === "i64") return castToInt64(from);
  if (isFloat(from) && to === "i32") return floatToI32;
  if (isFloat(from) && to === "u32") return floatToU32;
  // int -> float rounds; i32 <-> u32 reinterpret the bits; bool -> number is 0/1 already.
  return roundTo(to);
}

/** Truncates toward zero and saturates to the i32 range; NaN gives 0. */
function floatToI32(a: number): number {
  if (Number.isNaN(a)) return 0;
  return Math.min(I32_MAX, Math.max(I32_MIN, Math.trunc(a)));
}

function floatToU32(a: number): number {
  if (Number.isNaN(a)) return 0;
  return Math.min(U32_MAX, Math.max(0, Math.trunc(a)));
}

function unaryMathOp(fn: UnaryMathFn, dtype: Dtype): ScalarFn1 | undefined {
  if (fn === "abs") {
    if (dtype === "i32") return (a) => Math.abs(a) | 0; // abs(MIN) wraps to MIN
    if (dtype === "u32") return (a) => a;
    if (dtype === "i64") return Math.abs;
  }
  if (!isFloat(dtype)) return undefined;
  const round = roundTo(dtype);
  switch (fn) {
    case "exp":
      return (a) => round(Math.exp(a));
    case "log":
      return (a) => round(Math.log(a));
    case "sqrt":
      return (a) => round(Math.sqrt(a));
    case "rsqrt":
      return (a) => round(1 / Math.sqrt(a));
    case "abs":
      return Math.abs;
    case "sin":
      return (a) => round(Math.sin(a));
    case "cos":
      return (a) => round(Math.cos(a));
    case "floor":
      return Math.floor;
    case "ceil":
      return Math.ceil;
    case "sigmoid":
      return (a) => round(1 / (1 + Math.exp(-a)));
    default:
      return assertNever(fn, "math function");
  }
}

/** WGSL max/min: on floats, a NaN operand yields the other operand. */
export function extremumOp(fn: "maximum" | "minimum", dtype: Dtype): ScalarFn2 | undefined {
  if (dtype === "bool") return undefined;
  if (fn === "maximum") return isFloat(dtype) ? maxFloat : Math.max;
  return isFloat(dtype) ? minFloat : Math.min;
}

/** fma(a, b, c): the product and sum computed exactly enough in doubles, rounded once. */
export function fmaOp(dtype: Dtype): ScalarFn3 | undefined {
  if (!isFloat(dtype)) return undefined;
  const round = roundTo(dtype);
  return (a, b, c) => round(a * b + c);
}

/** Each math function: how many operands it takes, and its scalar function on `dtype`. */
export const MATH_ARITHMETIC: Record<MathFn, { arity: 1 | 2 | 3; op: (dtype: Dtype) => ScalarFn1 | ScalarFn2 | ScalarFn3 | undefined }> = {
  exp: { arity: 1, op: (dtype) => unaryMathOp("exp", dtype) },
  log: { arity: 1, op: (dtype) => unaryMathOp("log", dtype) },
  sqrt: { arity: 1, op: (dtype) => unaryMathOp("sqrt", dtype) },
  rsqrt: { arity: 1, op: (dtype) => unaryMathOp("rsqrt", dtype) },
  abs: { arity: 1, op: (dtype) => unaryMathOp("abs", dtype) },
  sin: { arity: 1, op: (dtype) => unaryMathOp("sin", dtype) },
  cos: { arity: 1, op: (dtype) => unaryMathOp("cos", dtype) },
  floor: { arity: 1, op: (dtype) => unaryMathOp("floor", dtype) },
  ceil: { arity: 1, op: (dtype) => unaryMathOp("ceil", dtype) },
  sigmoid: { arity: 1, op: (dtype) => unaryMathOp("sigmoid", dtype) },
  maximum: { arity: 2, op: (dtype) => extremumOp("maximum", dtype) },
  minimum: { arity: 2, op: (dtype) => extremumOp("minimum", dtype) },
  fma: { arity: 3, op: fmaOp },
  ...SPECIAL_MATH_ARITHMETIC,
};
