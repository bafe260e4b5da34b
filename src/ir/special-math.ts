// Issue 11's math functions on JS numbers (the interpreter's; codegen/special-math.ts writes the
// same in WGSL): exp2, log2, tanh, erf, pow, umulhi, clamp. Floats are rounded as the GPU holds
// them (f32 by Math.fround, f16 to the nearest half); `undefined` is a dtype the function lacks.

import { roundF8e4m3, roundF8e5m2 } from "./f8";
import type { Dtype, SpecialMathFn } from "./ir";
import { roundF16 } from "./f16";
import { umulhi } from "./philox";
import { maxFloat, minFloat } from "./float-min-max";
import { erfc, erfcx, lgamma } from "./gamma-erfc";

type ScalarFn = (...operands: number[]) => number;
type Entry = { arity: 1 | 2 | 3; op: (dtype: Dtype) => ScalarFn | undefined };

const isFloat = (dtype: Dtype) => dtype === "f32" || dtype === "f16";
const isInt = (dtype: Dtype) => dtype === "i32" || dtype === "u32";

/** `fn` on floats, rounded to `dtype`. */
function floatFn(fn: ScalarFn): (dtype: Dtype) => ScalarFn | undefined {
  return (dtype) => {
    if (!isFloat(dtype)) return undefined;
    const round = dtype === "f32" ? Math.fround : roundF16;
    return (...operands) => round(fn(...operands));
  };
}

// erf: the Maclaurin series to x^11 below |x| = 0.5 (truncation < 1.5e-8 there), and
// Abramowitz–Stegun 7.1.26 above (|error| ≤ 1.5e-7); the WGSL evaluates the same in f32.
export const ERF_SERIES = [1, -1 / 3, 1 / 10, -1 / 42, 1 / 216, -1 / 1320] as const;
export const ERF_AS_P = 0.3275911;
export const ERF_AS_A = [0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429] as const;
const TWO_OVER_SQRT_PI = 1.1283791670955126;

export function erfApprox(x: number): number {
  if (Number.isNaN(x)) return x;
  const a = Math.abs(x);
  if (a < 0.5) {
    const x2 = x * x;
    let sum = 0;
    for (let i = ERF_SERIES.length - 1; i >= 0; i--) sum = sum * x2 + ERF_SERIES[i];
    return TWO_OVER_SQRT_PI * x * sum;
  }
  const t = 1 / (1 + ERF_AS_P * a);
  let poly = 0;
  for (let i = ERF_AS_A.length - 1; i >= 0; i--) poly = poly * t + ERF_AS_A[i];
  const y = 1 - poly * t * Math.exp(-a * a);
  return x < 0 ? -y : y;
}

/** C's powf, which the WGSL's kl_pow follows: a negative base with an integer exponent is defined. */
function pow(x: number, y: number): number {
  return Math.pow(x, y);
}

/** libdevice's bit counts on a 32-bit integer's bits (an i32's as its two's complement), giving an i32. */
function bitCount(fn: (bits: number) => number): (dtype: Dtype) => ScalarFn | undefined {
  return (dtype) => (dtype === "i32" ? (x) => fn(x >>> 0) : undefined);
}

function popc(bits: number): number {
  let n = 0;
  for (let b = bits; b !== 0; b >>>= 1) n += b & 1;
  return n;
}

/** clamp(x, lo, hi) = min(max(x, lo), hi), as the WGSL writes it (WGSL max/min: a NaN operand yields the other). */
function clampOp(dtype: Dtype): ScalarFn | undefined {
  if (isFloat(dtype)) return (x, lo, hi) => minFloat(maxFloat(x, lo), hi);
  return isInt(dtype) ? (x, lo, hi) => Math.min(Math.max(x, lo), hi) : undefined;
}

/** The high 32 bits of the 64-bit unsigned product; on i32 the bits reinterpreted. */
function umulhiOp(dtype: Dtype): ScalarFn | undefined {
  if (dtype === "u32") return (a, b) => umulhi(a, b);
  return dtype === "i32" ? (a, b) => umulhi(a, b) | 0 : undefined;
}

export const SPECIAL_MATH_ARITHMETIC: Record<SpecialMathFn, Entry> = {
  exp2: { arity: 1, op: floatFn((a) => Math.pow(2, a)) },
  log2: { arity: 1, op: floatFn(Math.log2) },
  tanh: { arity: 1, op: floatFn(Math.tanh) },
  erf: { arity: 1, op: floatFn(erfApprox) },
  pow: { arity: 2, op: floatFn(pow) },
  umulhi: { arity: 2, op: umulhiOp },
  clamp: { arity: 3, op: clampOp },
  // Correctly rounded: a double's quotient or root of two floats rounds to the nearest float (no double-rounding error).
  divRn: { arity: 2, op: floatFn((a, b) => a / b) },
  sqrtRn: { arity: 1, op: floatFn(Math.sqrt) },
  asin: { arity: 1, op: floatFn(Math.asin) },
  acos: { arity: 1, op: floatFn(Math.acos) },
  atan: { arity: 1, op: floatFn(Math.atan) },
  log1p: { arity: 1, op: floatFn(Math.log1p) },
  expm1: { arity: 1, op: floatFn(Math.expm1) },
  lgamma: { arity: 1, op: floatFn(lgamma) },
  erfc: { arity: 1, op: floatFn(erfc) },
  erfcx: { arity: 1, op: floatFn(erfcx) },
  // The result's dtype (i32) is the one given; the operand is an i32's or a u32's bits.
  popc: { arity: 1, op: bitCount(popc) },
  clz: { arity: 1, op: bitCount(Math.clz32) },
  ffs: { arity: 1, op: bitCount((b) => (b === 0 ? 0 : 32 - Math.clz32(b & -b))) },
  roundF8e4m3: { arity: 1, op: (dtype) => (dtype === "f32" ? roundF8e4m3 : undefined) },
  roundF8e5m2: { arity: 1, op: (dtype) => (dtype === "f32" ? roundF8e5m2 : undefined) },
};
