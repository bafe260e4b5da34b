// 8-bit elements (Ptr<bool>, Ptr<i8>, Ptr<u8>: torch.bool, int8, uint8) in WGSL, which has no 8-bit
// type. The buffer is an array<u32>, 4 elements to a word, element i in bits 8·(i & 3) of word
// i >> 2 (little-endian, as the host's bytes are laid out). A load takes its byte out of the word:
// bool is byte != 0, i8 sign-extended, u8 zero-extended into an i32 (as Triton holds them). A store
// must leave the word's other 3 bytes alone — another invocation, or another program, may be
// writing them at the same time — so a stored buffer is an array<atomic<u32>> and each store clears
// its byte with atomicAnd, then sets it with atomicOr: both touch only the bits of its own byte, so
// stores to neighbouring bytes from anywhere commute. Loads from a stored buffer are atomicLoads.
// Pointers stay element offsets, so the instrumented variant's bounds and race checks count
// elements, not words (instrument.ts).

import type { ByteDtype } from "../ir/ir";
import type { WgslGenerator } from "./generator";

/** The byte's bit offset in its word (a u32 expression). */
function shift(index: string): string {
  return `(u32((${index}) & 3) * 8u)`;
}

/** The word that holds element `index`, read. */
function word(gen: WgslGenerator, param: string, index: string): string {
  const ref = `b_${param}[(${index}) >> 2u]`;
  return gen.buffers.get(param)?.atomic ? `atomicLoad(&${ref})` : ref;
}

/** A WGSL expression for element `index` of a byte buffer, as the register holds it (bool or i32). */
export function byteRead(gen: WgslGenerator, param: string, pointee: ByteDtype, index: string): string {
  const w = word(gen, param, index);
  switch (pointee) {
    case "bool":
      return `(extractBits(${w}, ${shift(index)}, 8u) != 0u)`;
    case "u8":
      return `i32(extractBits(${w}, ${shift(index)}, 8u))`;
    case "i8":
      // extractBits of an i32 sign-extends the field.
      return `extractBits(bitcast<i32>(${w}), ${shift(index)}, 8u)`;
  }
}

/** WGSL statements that store `value` (bool or i32) as element `index` of a byte buffer, its word's other bytes untouched. */
export function byteWrite(param: string, pointee: ByteDtype, index: string, value: string): string {
  const byte = pointee === "bool" ? `select(0u, 1u, ${value})` : `(bitcast<u32>(${value}) & 0xffu)`;
  const ref = `&b_${param}[(${index}) >> 2u]`;
  return `atomicAnd(${ref}, ~(0xffu << ${shift(index)})); atomicOr(${ref}, ${byte} << ${shift(index)});`;
}
