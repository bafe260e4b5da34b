// Constant folding with WGSL's arithmetic, so that `BLOCK * 2` can be a block size and a folded
// value equals what the GPU would have computed.

import type { BinaryFn, Dtype, UnaryFn } from "../ir/ir";

const f16Scratch = new Float32Array(1);

export function roundTo(dtype: Dtype, x: number): number {
  switch (dtype) {
    case "f32":
      return Math.fround(x);
    case "f16":
      return roundF16(x);
    case "i32":
      return Number.isFinite(x) ? Math.trunc(x) | 0 : 0;
    case "u32":
      return Number.isFinite(x) ? Math.trunc(x) >>> 0 : 0;
    case "bool":
      return x ? 1 : 0;
  }
}

/** Converts a number to `dtype` as WGSL's value constructors do (floats to ints saturate). */
export function convert(from: Dtype, to: Dtype, x: number): number {
  if ((from === "f32" || from === "f16") && (to === "i32" || to === "u32")) {
    if (Number.isNaN(x)) return 0;
    const lo = to === "i32" ? -2147483648 : 0;
    const hi = to === "i32" ? 2147483647 : 4294967295;
    return Math.min(hi, Math.max(lo, Math.trunc(x)));
  }
  if (to === "bool") return x !== 0 ? 1 : 0;
  return roundTo(to, x);
}

function roundF16(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Infinity;
  // Round to 11 significant bits (or to the subnormal grid below 2^-14).
  const exp = Math.max(Math.floor(Math.log2(a)), -14);
  const step = 2 ** (exp - 10);
  f16Scratch[0] = Math.sign(x) * Math.round(a / step) * step;
  return f16Scratch[0];
}

/** Returns undefined where WGSL would reject the constant expression (e.g. division by zero). */
export function foldBinary(fn: BinaryFn, dtype: Dtype, a: number, b: number): number | undefined {
  const int = dtype === "i32" || dtype === "u32";
  switch (fn) {
    case "add": return roundTo(dtype, a + b);
    case "sub": return roundTo(dtype, a - b);
    case "mul": return roundTo(dtype, int ? Number(BigInt.asIntN(64, BigInt(a) * BigInt(b))) : a * b);
    case "div":
      if (int && b === 0) return undefined;
      return roundTo(dtype, int ? Math.trunc(a / b) : a / b);
    case "mod":
      if (int && b === 0) return undefined;
      return roundTo(dtype, a % b);
    case "and": return roundTo(dtype, a & b);
    case "or": return roundTo(dtype, a | b);
    case "xor": return roundTo(dtype, a ^ b);
    case "shl": return roundTo(dtype, a << (b & 31));
    case "shr": return roundTo(dtype, dtype === "u32" ? a >>> (b & 31) : a >> (b & 31));
    case "lt": return a < b ? 1 : 0;
    case "le": return a <= b ? 1 : 0;
    case "gt": return a > b ? 1 : 0;
    case "ge": return a >= b ? 1 : 0;
    case "eq": return a === b ? 1 : 0;
    case "ne": return a !== b ? 1 : 0;
    case "land": return a && b ? 1 : 0;
    case "lor": return a || b ? 1 : 0;
  }
}

export function foldUnary(fn: UnaryFn, dtype: Dtype, a: number): number {
  switch (fn) {
    case "neg": return roundTo(dtype, -a);
    case "not": return a ? 0 : 1;
    case "bitnot": return roundTo(dtype, ~a);
  }
}
