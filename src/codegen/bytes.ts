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
// So are they on an f16, whose buffer is packed the same way (2 to a word, `wordField`) only where
// some tl.atomic* goes through it: WGSL has no 16-bit atomics, and an array<f16> no atomics at all.
// Pointers stay element offsets, so the instrumented variant's bounds and race checks count
// elements, not words (instrument.ts).

import { isPackedDtype, type PackedDtype, type PointeeDtype } from "../ir/ir";
import type { WgslGenerator } from "./generator";

/** An element held in a field of a u32 word: the packed dtypes, and f16 in a buffer atomics go through. */
export type WordField = PackedDtype | "f16";

/** How elements of `pointee` through `param` lie in the buffer: in fields of u32 words, or undefined for one element per array element. */
export function wordField(gen: { readonly atomicBuffers: ReadonlySet<string> }, param: string, pointee: PointeeDtype): WordField | undefined {
  if (isPackedDtype(pointee)) return pointee;
  return pointee === "f16" && gen.atomicBuffers.has(param) ? "f16" : undefined;
}

/** Bits of one element. */
function width(pointee: WordField): 8 | 16 {
  return pointee === "bf16" || pointee === "f16" ? 16 : 8;
}

/** log2 of the elements in a word. */
function perWordShift(pointee: WordField): number {
  return width(pointee) === 16 ? 1 : 2;
}

/** The field's bit offset in its word (a u32 expression). */
function shift(pointee: WordField, index: string): string {
  return `(u32((${index}) & ${(1 << perWordShift(pointee)) - 1}) * ${width(pointee)}u)`;
}

/** The word that holds element `index`, as a reference. */
function wordRef(pointee: WordField, param: string, index: string): string {
  return `b_${param}[(${index}) >> ${perWordShift(pointee)}u]`;
}

/** The word that holds element `index`, read. */
function word(gen: WgslGenerator, pointee: WordField, param: string, index: string): string {
  const ref = wordRef(pointee, param, index);
  return gen.buffers.get(param)?.atomic ? `atomicLoad(&${ref})` : ref;
}

/** The field at bit offset `at` of the u32 `w`, as the register holds it (bool, i32, an f32 for a bf16 or an fp8, an f16). */
function fromWord(pointee: WordField, w: string, at: string): string {
  switch (pointee) {
    case "bool":
      return `(extractBits(${w}, ${at}, 8u) != 0u)`;
    case "u8":
      return `i32(extractBits(${w}, ${at}, 8u))`;
    case "i8":
      // extractBits of an i32 sign-extends the field.
      return `extractBits(bitcast<i32>(${w}), ${at}, 8u)`;
    case "f8e4m3":
      return `kl_f8e4m3_value(extractBits(${w}, ${at}, 8u))`;
    case "f8e5m2":
      return `kl_f8e5m2_value(extractBits(${w}, ${at}, 8u))`;
    case "bf16":
      return `bitcast<f32>(extractBits(${w}, ${at}, 16u) << 16u)`;
    case "f16":
      return `bitcast<vec2<f16>>(extractBits(${w}, ${at}, 16u)).x`;
  }
}

/** A register's value as its field, in the low bits of a u32 (a bf16's f32 already holds a bf16 value: its top half). */
function toField(pointee: WordField, value: string): string {
  if (pointee === "bf16") return `(bitcast<u32>(${value}) >> 16u)`;
  if (pointee === "f16") return `bitcast<u32>(vec2<f16>(${value}, 0.0h))`;
  // A store rounds as Triton's implicit conversion to fp8 does (saturating); a value already converted is kept exactly.
  if (pointee === "f8e4m3") return `kl_f8e4m3_bits(${value})`;
  if (pointee === "f8e5m2") return `kl_f8e5m2_bits(${value})`;
  return pointee === "bool" ? `select(0u, 1u, ${value})` : `(bitcast<u32>(${value}) & 0xffu)`;
}

/** A WGSL expression for element `index` of a packed buffer, as the register holds it. */
export function packedRead(gen: WgslGenerator, param: string, pointee: WordField, index: string): string {
  return fromWord(pointee, word(gen, pointee, param, index), shift(pointee, index));
}

/** WGSL statements that store `value` as element `index` of a packed buffer, its word's other fields untouched. */
export function packedWrite(param: string, pointee: WordField, index: string, value: string): string {
  const ref = `&${wordRef(pointee, param, index)}`;
  const ones = width(pointee) === 16 ? "0xffffu" : "0xffu";
  return `atomicAnd(${ref}, ~(${ones} << ${shift(pointee, index)})); atomicOr(${ref}, ${toField(pointee, value)} << ${shift(pointee, index)});`;
}

/**
 * A run of 4 consecutive elements starting on a multiple of 4 (`index`, checked at run time by the
 * caller), every lane's mask on: its words belong to this invocation, so each is written in one
 * atomicStore (the binding is atomic) of its fields packed, instead of 4 pairs of atomics.
 */
export function packedRunWrite(param: string, pointee: WordField, index: string, values: readonly string[]): string {
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
export function packedRunRead(gen: WgslGenerator, param: string, pointee: WordField, index: string, name: string): { read: string; lanes: string[] } {
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
 * tl.atomic_add and tl.atomic_cas on bf16 or f16 element `index` (Triton has both on both: the add
 * on sm90 for bf16, Liger's group norm backward, and on sm70 for f16; the cas on any 16-bit element,
 * semantic.py atomic_cas). WGSL has no 16-bit atomics, so the word holding the element is swapped
 * for one with the element's field replaced, its other field as it was, until no other lane got
 * between. The add's field is the sum rounded to the element's dtype (bf16: kl_bf16 of the f32 sum,
 * exact before it; f16: WGSL's f16 add, rounded once as Triton's atom.add.f16). The cas compares the
 * field's bits with cmp's, as Triton's cmpxchg on the 16 bits does (so -0.0 is not +0.0 and a NaN
 * equals its own bits), and leaves the word alone where they differ: the old value is then the
 * field as read (an atomic read), as a strong compare-and-swap returns it. `old` gets the element's
 * old value.
 */
export function packedAtomic(gen: WgslGenerator, fn: "add" | "cas", half: "bf16" | "f16", param: string, index: string, value: string, cmp: string | undefined, old: string): void {
  const ref = `&${wordRef(half, param, index)}`;
  const at = gen.fresh("at");
  const bits = gen.fresh("bits");
  gen.emit(`let ${at} = ${shift(half, index)};`);
  let want = "";
  let field = "";
  if (fn === "cas") {
    want = gen.fresh("want");
    field = gen.fresh("put");
    gen.emit(`let ${want} = ${toField(half, cmp ?? value)};`);
    gen.emit(`let ${field} = ${toField(half, value)};`);
  }
  gen.emit(`var ${bits} = atomicLoad(${ref});`);
  gen.emit("loop {");
  gen.nested(() => {
    if (fn === "cas") gen.emit(`if (extractBits(${bits}, ${at}, 16u) != ${want}) { break; }`);
    const sum = half === "bf16" ? `kl_bf16(${fromWord(half, bits, at)} + ${value})` : `(${fromWord(half, bits, at)} + ${value})`;
    const next = fn === "cas" ? field : toField(half, sum);
    gen.emit(`let r = atomicCompareExchangeWeak(${ref}, ${bits}, insertBits(${bits}, ${next}, ${at}, 16u));`);
    gen.emit("if (r.exchanged) { break; }");
    gen.emit(`${bits} = r.old_value;`);
  });
  gen.emit("}");
  gen.emit(`${old} = ${fromWord(half, bits, at)};`);
}
