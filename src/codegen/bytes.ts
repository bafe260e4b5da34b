// Elements narrower than a word in WGSL, which has no 8- or 16-bit type: 8-bit elements (Ptr<bool>,
// Ptr<i8>, Ptr<u8>: torch.bool, int8, uint8) and bf16 (Ptr<bf16>: torch.bfloat16). The buffer is an
// array<u32>: bytes 4 to a word, element i in bits 8·(i & 3) of word i >> 2; bf16s 2 to a word,
// element i in bits 16·(i & 1) of word i >> 1 (little-endian, as the host's bytes are laid out). A
// load takes its field out of the word: bool is byte != 0, i8 sign-extended, u8 zero-extended into
// an i32 (as Triton holds them), a bf16 its bits as an f32's top half (exact). A store must leave
// the word's other fields alone — another invocation, or another program, may be writing them at
// the same time — so a stored buffer is an array<atomic<u32>> and each store clears its field with
// atomicAnd, then sets it with atomicOr: both touch only the bits of its own field, so stores to
// neighbouring elements from anywhere commute. Loads from a stored buffer are atomicLoads.
// Where an invocation holds runs of 4 consecutive elements (load-forms.ts inRunsOfFour), a run that
// starts on a multiple of 4 and is unmasked is whole words (1 of bytes, 2 of bf16s): loaded once,
// or stored whole with one atomicStore each.
// tl.atomic_add and tl.atomic_cas on a bf16 are compare-and-swap loops on its word (packedAtomic).
// Pointers stay element offsets, so the instrumented variant's bounds and race checks count
// elements, not words (instrument.ts).

import type { PackedDtype } from "../ir/ir";
import type { WgslGenerator } from "./generator";

/** Bits of one element. */
function width(pointee: PackedDtype): 8 | 16 {
  return pointee === "bf16" ? 16 : 8;
}

/** log2 of the elements in a word. */
function perWordShift(pointee: PackedDtype): number {
  return pointee === "bf16" ? 1 : 2;
}

/** The field's bit offset in its word (a u32 expression). */
function shift(pointee: PackedDtype, index: string): string {
  return `(u32((${index}) & ${(1 << perWordShift(pointee)) - 1}) * ${width(pointee)}u)`;
}

/** The word that holds element `index`, as a reference. */
function wordRef(pointee: PackedDtype, param: string, index: string): string {
  return `b_${param}[(${index}) >> ${perWordShift(pointee)}u]`;
}

/** The word that holds element `index`, read. */
function word(gen: WgslGenerator, pointee: PackedDtype, param: string, index: string): string {
  const ref = wordRef(pointee, param, index);
  return gen.buffers.get(param)?.atomic ? `atomicLoad(&${ref})` : ref;
}

/** The field at bit offset `at` of the u32 `w`, as the register holds it (bool, i32, or an f32 for a bf16). */
function fromWord(pointee: PackedDtype, w: string, at: string): string {
  switch (pointee) {
    case "bool":
      return `(extractBits(${w}, ${at}, 8u) != 0u)`;
    case "u8":
      return `i32(extractBits(${w}, ${at}, 8u))`;
    case "i8":
      // extractBits of an i32 sign-extends the field.
      return `extractBits(bitcast<i32>(${w}), ${at}, 8u)`;
    case "bf16":
      return `bitcast<f32>(extractBits(${w}, ${at}, 16u) << 16u)`;
  }
}

/** A register's value as its field, in the low bits of a u32 (a bf16's f32 already holds a bf16 value: its top half). */
function toField(pointee: PackedDtype, value: string): string {
  if (pointee === "bf16") return `(bitcast<u32>(${value}) >> 16u)`;
  return pointee === "bool" ? `select(0u, 1u, ${value})` : `(bitcast<u32>(${value}) & 0xffu)`;
}

/** A WGSL expression for element `index` of a packed buffer, as the register holds it. */
export function packedRead(gen: WgslGenerator, param: string, pointee: PackedDtype, index: string): string {
  return fromWord(pointee, word(gen, pointee, param, index), shift(pointee, index));
}

/** WGSL statements that store `value` as element `index` of a packed buffer, its word's other fields untouched. */
export function packedWrite(param: string, pointee: PackedDtype, index: string, value: string): string {
  const ref = `&${wordRef(pointee, param, index)}`;
  const ones = pointee === "bf16" ? "0xffffu" : "0xffu";
  return `atomicAnd(${ref}, ~(${ones} << ${shift(pointee, index)})); atomicOr(${ref}, ${toField(pointee, value)} << ${shift(pointee, index)});`;
}

/**
 * A run of 4 consecutive elements starting on a multiple of 4 (`index`, checked at run time by the
 * caller), every lane's mask on: its words belong to this invocation, so each is written in one
 * atomicStore (the binding is atomic) of its fields packed, instead of 4 pairs of atomics.
 */
export function packedRunWrite(param: string, pointee: PackedDtype, index: string, values: readonly string[]): string {
  const per = 1 << perWordShift(pointee);
  const stores: string[] = [];
  for (let first = 0; first < 4; first += per) {
    const fields = values.slice(first, first + per).map((v, lane) => (lane === 0 ? toField(pointee, v) : `(${toField(pointee, v)} << ${width(pointee) * lane}u)`));
    const at = first === 0 ? index : `(${index}) + ${first}`;
    stores.push(`atomicStore(&${wordRef(pointee, param, at)}, ${fields.join(" | ")});`);
  }
  return stores.join(" ");
}

/** The aligned run's words, each read once (`let name`, `name_1`), and its 4 elements as the registers hold them. */
export function packedRunRead(gen: WgslGenerator, param: string, pointee: PackedDtype, index: string, name: string): { read: string; lanes: string[] } {
  const per = 1 << perWordShift(pointee);
  const reads: string[] = [];
  const lanes: string[] = [];
  for (let first = 0; first < 4; first += per) {
    const w = first === 0 ? name : `${name}_${first / per}`;
    reads.push(`let ${w} = ${word(gen, pointee, param, first === 0 ? index : `(${index}) + ${first}`)};`);
    for (let lane = 0; lane < per; lane++) lanes.push(fromWord(pointee, w, `${width(pointee) * lane}u`));
  }
  return { read: reads.join(" "), lanes };
}

/**
 * tl.atomic_add and tl.atomic_cas on bf16 element `index` (Triton has both on bf16: the add on sm90,
 * Liger's group norm backward; the cas on any 16-bit element, semantic.py atomic_cas). WGSL has no
 * 16-bit atomics, so the word holding the element is swapped for one with the element's field
 * replaced, its other field as it was, until no other lane got between. The add's field is the sum
 * rounded to bf16 (kl_bf16; the sum of two bf16s is exact in f32). The cas compares the field's bits
 * with cmp's, as Triton's cmpxchg on the 16 bits does (so -0.0 is not +0.0 and a NaN equals its own
 * bits), and leaves the word alone where they differ: the old value is then the field as read (an
 * atomic read), as a strong compare-and-swap returns it. `old` gets the element's old value.
 */
export function packedAtomic(gen: WgslGenerator, fn: "add" | "cas", param: string, index: string, value: string, cmp: string | undefined, old: string): void {
  const ref = `&${wordRef("bf16", param, index)}`;
  const at = gen.fresh("at");
  const bits = gen.fresh("bits");
  gen.emit(`let ${at} = ${shift("bf16", index)};`);
  let want = "";
  let field = "";
  if (fn === "cas") {
    want = gen.fresh("want");
    field = gen.fresh("put");
    gen.emit(`let ${want} = ${toField("bf16", cmp ?? value)};`);
    gen.emit(`let ${field} = ${toField("bf16", value)};`);
  }
  gen.emit(`var ${bits} = atomicLoad(${ref});`);
  gen.emit("loop {");
  gen.nested(() => {
    if (fn === "cas") gen.emit(`if (extractBits(${bits}, ${at}, 16u) != ${want}) { break; }`);
    const next = fn === "cas" ? field : toField("bf16", `kl_bf16(${fromWord("bf16", bits, at)} + ${value})`);
    gen.emit(`let r = atomicCompareExchangeWeak(${ref}, ${bits}, insertBits(${bits}, ${next}, ${at}, 16u));`);
    gen.emit("if (r.exchanged) { break; }");
    gen.emit(`${bits} = r.old_value;`);
  });
  gen.emit("}");
  gen.emit(`${old} = ${fromWord("bf16", bits, at)};`);
}
