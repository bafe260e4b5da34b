// 8-bit elements (Ptr<bool>, Ptr<i8>, Ptr<u8>: torch.bool, int8, uint8) in WGSL, which has no 8-bit
// type. The buffer is an array<u32>, 4 elements to a word, element i in bits 8·(i & 3) of word
// i >> 2 (little-endian, as the host's bytes are laid out). A load takes its byte out of the word:
// bool is byte != 0, i8 sign-extended, u8 zero-extended into an i32 (as Triton holds them). A store
// must leave the word's other 3 bytes alone — another invocation, or another program, may be
// writing them at the same time — so a stored buffer is an array<atomic<u32>> and each store clears
// its byte with atomicAnd, then sets it with atomicOr: both touch only the bits of its own byte, so
// stores to neighbouring bytes from anywhere commute. Loads from a stored buffer are atomicLoads.
// Where an invocation holds runs of 4 consecutive elements (load-forms.ts inRunsOfFour), a run that
// starts on a word and is unmasked is one word: loaded once, or stored whole with one atomicStore.
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

/** The byte at bit offset `at` of the u32 `w`, as the register holds it (bool or i32). */
function fromWord(pointee: ByteDtype, w: string, at: string): string {
  switch (pointee) {
    case "bool":
      return `(extractBits(${w}, ${at}, 8u) != 0u)`;
    case "u8":
      return `i32(extractBits(${w}, ${at}, 8u))`;
    case "i8":
      // extractBits of an i32 sign-extends the field.
      return `extractBits(bitcast<i32>(${w}), ${at}, 8u)`;
  }
}

/** A register's value (bool or i32) as its byte, in the low 8 bits of a u32. */
function toByte(pointee: ByteDtype, value: string): string {
  return pointee === "bool" ? `select(0u, 1u, ${value})` : `(bitcast<u32>(${value}) & 0xffu)`;
}

/** A WGSL expression for element `index` of a byte buffer, as the register holds it (bool or i32). */
export function byteRead(gen: WgslGenerator, param: string, pointee: ByteDtype, index: string): string {
  return fromWord(pointee, word(gen, param, index), shift(index));
}

/** WGSL statements that store `value` (bool or i32) as element `index` of a byte buffer, its word's other bytes untouched. */
export function byteWrite(param: string, pointee: ByteDtype, index: string, value: string): string {
  const ref = `&b_${param}[(${index}) >> 2u]`;
  return `atomicAnd(${ref}, ~(0xffu << ${shift(index)})); atomicOr(${ref}, ${toByte(pointee, value)} << ${shift(index)});`;
}

/**
 * A run of 4 consecutive elements starting on a multiple of 4 (`index`, checked at run time by the
 * caller), every lane's mask on: the whole word belongs to this invocation, so it is written in one
 * atomicStore (the binding is atomic) of the 4 bytes packed, instead of 4 pairs of atomics.
 */
export function byteRunWrite(param: string, pointee: ByteDtype, index: string, values: readonly string[]): string {
  const packed = values.map((v, lane) => (lane === 0 ? toByte(pointee, v) : `(${toByte(pointee, v)} << ${8 * lane}u)`)).join(" | ");
  return `atomicStore(&b_${param}[(${index}) >> 2u], ${packed});`;
}

/** The aligned run's word, read once (`let`), and its 4 elements as the registers hold them. */
export function byteRunRead(gen: WgslGenerator, param: string, pointee: ByteDtype, index: string, name: string): { read: string; lanes: string[] } {
  return { read: `let ${name} = ${word(gen, param, index)};`, lanes: [0, 1, 2, 3].map((lane) => fromWord(pointee, name, `${8 * lane}u`)) };
}
