// Host arrays ↔ what the GPU and the interpreter hold: f16 pointers travel as IEEE half bits in a
// Uint16Array (runtime/buffers.ts), written by the user as a Float32Array, and bf16 pointers as bf16 bits likewise; i64 pointers as their
// i32 low words (README "64-bit integers"), written as a BigInt64Array whose values fit in 32 bits
// (args.ts checks), so what comes back, sign-extended, is the int64 the kernel stored.

import type { Param, PointeeDtype } from "../../ir/ir";
import { f16FromBits, f16ToBits, roundF16 } from "../../ir/f16";
import { bf16FromBits, bf16ToBits, roundBf16 } from "../../ir/bf16";
import { poison, type HostArray } from "../../language";
import type { StorageArray } from "../../runtime";

export function toStorage(array: HostArray, dtype: PointeeDtype): StorageArray {
  if (array instanceof BigInt64Array) return Int32Array.from(array, (x) => Number(BigInt.asIntN(32, x)));
  if (dtype !== "f16" && dtype !== "bf16") return array;
  const toBits = dtype === "f16" ? f16ToBits : bf16ToBits;
  const bits = new Uint16Array(array.length);
  for (let i = 0; i < array.length; i++) bits[i] = toBits(array[i]);
  return bits;
}

/** Rounds a Float32Array in place to the values half precision (or bf16, `dtype`) can hold. */
export function roundToF16(array: HostArray, dtype: "f16" | "bf16" = "f16"): void {
  if (array instanceof BigInt64Array) return;
  const round = dtype === "f16" ? roundF16 : roundBf16;
  for (let i = 0; i < array.length; i++) array[i] = round(array[i]);
}

/** Element values of what came back, as numbers to compare (an i64's i32 word is its value). */
export function fromStorage(array: StorageArray, dtype: PointeeDtype): ArrayLike<number> {
  if (dtype !== "f16" && dtype !== "bf16") return array;
  const fromBits = dtype === "f16" ? f16FromBits : bf16FromBits;
  const out = new Float32Array(array.length);
  for (let i = 0; i < array.length; i++) out[i] = fromBits(array[i]);
  return out;
}

export function pointerParams(params: readonly Param[]): Param[] {
  return params.filter((p) => p.kind === "pointer");
}

/** Outputs the kernel never reads (compile.ts KernelFacts.loaded) start as poison, so an element it never writes is caught. */
export function poisonUnreadOutputs(loaded: ReadonlySet<string>, outputs: readonly string[], args: Record<string, unknown>): void {
  for (const o of outputs) {
    if (loaded.has(o)) continue;
    poison(args[o] as HostArray);
  }
}
