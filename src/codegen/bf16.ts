// bf16 values in WGSL, which has no bf16 type: a bf16 is held in an f32 register holding a
// bf16-representable value (generator.ts `dtype` maps bf16 to f32), so semantics (semantics/bf16-ops.ts)
// leaves codegen only conversions: to bf16 rounds the f32 to nearest even (kl_bf16), from bf16 is
// the f32 itself. Buffers of bf16 are 16-bit fields two to a word (bytes.ts).

import type { ValueType } from "../ir/ir";

/**
 * Round to nearest, ties to even, on the 16 bits dropped, in integer arithmetic (a shader compiler
 * may assume floats are never NaN, so NaN is found from its bits): NaN stays a quiet NaN, ±inf stays,
 * a finite value past the largest bf16 carries into the exponent and becomes ±inf.
 */
export const BF16_WGSL = `fn kl_bf16(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  if ((b & 0x7fffffffu) > 0x7f800000u) { return bitcast<f32>((b | 0x00400000u) & 0xffff0000u); }
  return bitcast<f32>((b + 0x7fffu + ((b >> 16u) & 1u)) & 0xffff0000u);
}
`;

/** A WGSL conversion of `x` (a register of type `from`) to `to`, whose WGSL type is `wgslTo`. */
export function castWgsl(from: ValueType, to: ValueType, wgslTo: string, x: string): string {
  const fromDtype = from.kind === "data" ? from.dtype : "i32";
  const toDtype = to.kind === "data" ? to.dtype : "i32";
  if (toDtype === "bf16") return fromDtype === "f32" || fromDtype === "bf16" ? `kl_bf16(${x})` : `kl_bf16(f32(${x}))`;
  return `${wgslTo}(${x})`;
}
