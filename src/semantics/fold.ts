// Constant folding with WGSL's arithmetic (ir/arithmetic.ts, the interpreter's too), so that
// `BLOCK * 2` can be a block size and a folded value equals what the GPU would have computed.

import type { BinaryFn, Dtype, UnaryFn } from "../ir/ir";
import { binaryOp, castOp, unaryOp } from "../ir/arithmetic";

/** Converts a number to `dtype` as WGSL's value constructors do (floats to ints saturate). */
export function convert(from: Dtype, to: Dtype, x: number): number {
  return castOp(from, to)(x);
}

/**
 * Undefined where WGSL rejects the constant expression: integer division or remainder by zero
 * (at run time WGSL defines them, but not in a constant expression).
 */
export function foldBinary(fn: BinaryFn, dtype: Dtype, a: number, b: number): number | undefined {
  if ((fn === "div" || fn === "mod") && (dtype === "i32" || dtype === "u32") && b === 0) return undefined;
  return binaryOp(fn, dtype)?.(a, b);
}

export function foldUnary(fn: UnaryFn, dtype: Dtype, a: number): number | undefined {
  return unaryOp(fn, dtype)?.(a);
}
