// Triton's int64, as Kernel Lab computes it (README "64-bit integers"). WGSL has no 64-bit
// integers, so the GPU holds an i64 in an i32 register: its add, sub, mul and bitwise ops give the
// exact value's low 32 bits, and every other op (compare, divide, shift right, convert) is exact
// while the value fits in 32 bits. WebGPU bindings hold < 2^32 bytes, so offsets into them fit.
// Constant folding and the interpreter compute i64 exactly (these functions, in float64: exact up
// to 2^53, and anything past 2^31 is caught anyway), and the interpreter stops with KL2091 at the
// first i64 value outside 32 bits: where it doesn't stop, the GPU's 32-bit arithmetic gave the
// same values.

import type { BinaryFn, Dtype, UnaryFn } from "./ir";
import type { ScalarFn1, ScalarFn2 } from "./arithmetic";

export const I64_FITS_MIN = -(2 ** 31);
export const I64_FITS_MAX = 2 ** 31 - 1;

/** Whether an i64 value is what its i32 register holds (the GPU's arithmetic is exact). */
export function fitsIn32(value: number): boolean {
  return value >= I64_FITS_MIN && value <= I64_FITS_MAX;
}

/** The i32 register's contents for an i64 value: its low 32 bits, signed (a WGSL literal). */
export function lowWord(value: number): number {
  return Number.isSafeInteger(value) ? Number(BigInt.asIntN(32, BigInt(value))) : value | 0;
}

const I64_MIN = -(2 ** 63);
const I64_MAX = 2 ** 63;

/** A 64-bit bitwise op, exact for integers up to 2^53 (0xFFFFFFFF masks included). */
function bitwise(op: (a: bigint, b: bigint) => bigint): ScalarFn2 {
  return (a, b) => {
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) return Number(BigInt.asIntN(64, op(BigInt(a), BigInt(b))));
    return NaN;
  };
}

export function int64Binary(fn: BinaryFn): ScalarFn2 | undefined {
  switch (fn) {
    case "add":
      return (a, b) => a + b;
    case "sub":
      return (a, b) => a - b;
    case "mul":
      return (a, b) => a * b;
    // WGSL's x / 0 is x and x % 0 is 0 (the interpreter's i32 rules, kept for i64).
    case "div":
      return (a, b) => (b === 0 ? a : Math.trunc(a / b));
    case "mod":
      return (a, b) => (b === 0 ? 0 : a % b);
    case "and":
      return bitwise((a, b) => a & b);
    case "or":
      return bitwise((a, b) => a | b);
    case "xor":
      return bitwise((a, b) => a ^ b);
    // Shifts by 32 to 63 mean something on 64 bits: `offset >> 32` is the high word.
    case "shl":
      return (a, b) => a * 2 ** Math.min(b, 63);
    case "shr":
      return (a, b) => Math.floor(a / 2 ** Math.min(b, 63));
    case "lt":
    case "le":
    case "gt":
    case "ge":
    case "eq":
    case "ne":
    case "land":
    case "lor":
      return undefined;
  }
}

export function int64Unary(fn: UnaryFn): ScalarFn1 | undefined {
  if (fn === "neg") return (a) => -a;
  if (fn === "bitnot") return (a) => -a - 1;
  return undefined;
}

/** Conversions into i64: integers and bools keep their value; floats truncate, saturating at ±2^63. */
export function castToInt64(from: Dtype): ScalarFn1 {
  if (from === "f32" || from === "f16" || from === "bf16") return (a) => (Number.isNaN(a) ? 0 : Math.min(I64_MAX, Math.max(I64_MIN, Math.trunc(a))));
  return (a) => a;
}
