// bfloat16 ("bf16"): the top 16 bits of an f32. WGSL has no bf16 type, so a bf16 value is held in
// an f32 register holding a bf16-representable value (codegen/bf16.ts), and a `Ptr<bf16>` buffer
// holds its 16-bit patterns two to a u32 word (codegen/bytes.ts). Converting to bf16 rounds the
// f32 to nearest, ties to even, as torch and Triton do: NaN stays a (quiet) NaN, infinities stay,
// a finite value past the largest bf16 rounds to ±Infinity, subnormals round like any other value.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The bf16 bit pattern of `x` (first held as an f32, as the GPU holds it), rounded to nearest even; NaN is 0x7fc0, as torch's. */
export function bf16ToBits(x: number): number {
  f32[0] = x;
  const bits = u32[0];
  if ((bits & 0x7fffffff) > 0x7f800000) return 0x7fc0;
  // Adding 0x7fff, plus 1 when the kept part is odd, carries into the kept bits exactly when the
  // dropped 16 bits are above half, or half with an odd kept part; a carry out of the mantissa
  // steps the exponent (to infinity past the largest finite bf16).
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

/** The value of a bf16 bit pattern (exact: its bits are an f32's top half). */
export function bf16FromBits(bits: number): number {
  u32[0] = (bits & 0xffff) << 16;
  return f32[0];
}

/** Rounds to the nearest bf16 value (through f32, as the GPU computes), ties to even. */
export function roundBf16(x: number): number {
  if (Number.isNaN(x)) return NaN;
  return bf16FromBits(bf16ToBits(x));
}

/**
 * A number passed for a bf16 scalar parameter, as Triton's launcher packs it (third_party/nvidia/backend/driver.py
 * `pack_bf16`: `(float)f`, then the f32's top 16 bits): rounded to f32, then truncated toward zero — not rounded
 * to nearest as a conversion in a kernel is. A NaN stays a NaN (JS's NaN is 0x7fc00000).
 */
export function bf16Argument(x: number): number {
  f32[0] = x;
  return bf16FromBits(u32[0] >>> 16);
}
