// Dtype promotion and shape broadcasting, as in Triton (python/triton/language/semantic.py).
// These functions only compute types; values.ts inserts the casts and broadcasts they imply.

import type { Dtype, NumDtype, Shape } from "../ir/ir";

export function isFloat(dtype: Dtype): dtype is "f32" | "f16" | "bf16" {
  return dtype === "f32" || dtype === "f16" || dtype === "bf16";
}

export function isInt(dtype: Dtype): dtype is "i32" | "u32" | "i64" {
  return dtype === "i32" || dtype === "u32" || dtype === "i64";
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
}

export function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

export function shapeToString(shape: Shape): string {
  return `[${shape.join(", ")}]`;
}

/**
 * Broadcasting:
 * 1. A scalar (shape []) stretches to any shape.
 * 2. Shapes are aligned at their last axis; the shorter one is padded with 1s in front.
 * 3. Along each axis the extents must be equal, or one of them 1 (which stretches).
 * Returns undefined when the shapes are incompatible.
 */
export function broadcastShapes(a: Shape, b: Shape): Shape | undefined {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const rank = Math.max(a.length, b.length);
  const pa = [...Array(rank - a.length).fill(1), ...a];
  const pb = [...Array(rank - b.length).fill(1), ...b];
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    if (pa[i] === pb[i] || pb[i] === 1) out.push(pa[i]);
    else if (pa[i] === 1) out.push(pb[i]);
    else return undefined;
  }
  return out;
}

/** A compile-time number carries a "weak" dtype: it adapts to the other operand (rule 1). */
export interface Operand {
  dtype: Dtype;
  weak: boolean;
  /** For weak operands: whether the number is integral. */
  integral?: boolean;
}

/**
 * Arithmetic promotion (bool operands are rejected by the caller):
 * 1. A constant adopts the other operand's dtype when it fits its kind: an integral constant
 *    takes any dtype, a fractional one takes a float dtype and turns an integer operand to f32.
 * 2. Otherwise a float operand wins: f32 over f16 over bf16 over integers.
 * 3. Integers: the wider wins (i64 over i32 and u32); of the same width, u32 over i32 (as in C and Triton).
 * 4. bf16 as Triton's computation_type_impl: bf16 only of two bf16s (bf16 with an integer is f32),
 *    f16 with bf16 is f16.
 * 5. `/` or `%` with a 16-bit float operand (f16 or bf16, beside anything, a constant too) is f32, as
 *    Triton's computation_type_impl: its PTX has neither in 16 bits (test_core.py's test_bin_op).
 */
export function promote(a: Operand, b: Operand, divOrMod = false): NumDtype {
  const bf16 = a.dtype === "bf16" || b.dtype === "bf16";
  if (divOrMod && (bf16 || a.dtype === "f16" || b.dtype === "f16")) return "f32";
  if (a.weak && !b.weak) return adopt(a, b.dtype as NumDtype);
  if (b.weak && !a.weak) return adopt(b, a.dtype as NumDtype);
  const da = a.dtype as NumDtype;
  const db = b.dtype as NumDtype;
  if (da === "f32" || db === "f32") return "f32";
  if (da === "f16" || db === "f16") return da === db || isInt(da) || isInt(db) || da === "bf16" || db === "bf16" ? "f16" : "f32";
  if (bf16) return da === db ? "bf16" : "f32";
  if (da === "i64" || db === "i64") return "i64";
  if (da === "u32" || db === "u32") return "u32";
  return "i32";
}

function adopt(weak: Operand, strong: NumDtype): NumDtype {
  if (isFloat(strong)) return strong;
  if (weak.integral) return strong;
  return "f32";
}
