// fp8 e4m3fn ("f8e4m3": torch.float8_e4m3fn, Triton's tl.float8e4nv; OCP FP8's E4M3): 1 sign bit,
// 4 exponent bits (bias 7), 3 mantissa bits; no infinities, S.1111.111 is NaN, so the largest
// finite value is 448 (S.1111.110) and the smallest subnormal 2^-9. WGSL has no 8-bit float: a
// value is held in an f32 register holding an fp8-representable value, a `Ptr<f8e4m3>` buffer holds
// the bit patterns four to a u32 word (codegen/bytes.ts), as bytes are.
//
// Converting to fp8 rounds to nearest, ties to even, in two ways, as the two do it:
// - torch's `.to(torch.float8_e4m3fn)` (c10/util/Float8_e4m3fn.h): a value that rounds past 448
//   (|x| >= 480, infinities) becomes NaN;
// - Triton's conversion in a kernel (`x.to(tl.float8e4nv)`, a store through an fp8 pointer: PTX's
//   cvt.rn.satfinite.e4m3x2.f32) saturates: it becomes ±448. NaN stays NaN in both.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The value of an e4m3fn bit pattern (exact in an f32). */
export function f8e4m3FromBits(bits: number): number {
  const sign = bits & 0x80 ? -1 : 1;
  const exponent = (bits >> 3) & 0xf;
  const mantissa = bits & 7;
  if ((bits & 0x7f) === 0x7f) return NaN;
  if (exponent === 0) return sign * mantissa * 2 ** -9;
  return sign * (1 + mantissa / 8) * 2 ** (exponent - 7);
}

/**
 * The e4m3fn bit pattern of `x` (first held as an f32, as the GPU holds it), rounded to nearest
 * even; past the largest finite value NaN (torch) or ±448 (`saturate`, Triton). NaN is 0x7f with its sign.
 */
export function f8e4m3ToBits(x: number, saturate: boolean): number {
  f32[0] = x;
  const bits = u32[0];
  const sign = (bits >>> 24) & 0x80;
  let magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) return sign | 0x7f;
  // 480 = 0x43f00000 is the first value that rounds past 448 (the halfway point 464 rounds to 448, even).
  if (saturate) magnitude = Math.min(magnitude, 0x43e00000);
  else if (magnitude >= 0x43f00000) return sign | 0x7f;
  return sign | magnitudeBits(magnitude);
}

/** The 7 low bits of a finite f32 magnitude's pattern (at most 448) rounded to e4m3fn, in integer arithmetic as the WGSL does it. */
function magnitudeBits(magnitude: number): number {
  const exponent = magnitude >>> 23;
  if (exponent < 121) {
    // Under 2^-6 (the smallest normal): a count of 2^-9s, the f32's significand shifted right, rounded to even.
    if (exponent < 117) return 0; // under 2^-10, half the smallest subnormal
    const significand = (magnitude & 0x7fffff) | 0x800000;
    const shift = 141 - exponent; // 21 … 24
    const kept = significand >>> shift;
    const dropped = significand & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    return kept + (dropped > half || (dropped === half && kept & 1) ? 1 : 0);
  }
  // Rebias the exponent (127 → 7) and round the 20 dropped mantissa bits to even; a carry steps the exponent.
  const odd = (magnitude >>> 20) & 1;
  return ((magnitude - (120 << 23) + 0x7ffff + odd) >>> 20) & 0x7f;
}

/** Rounds to the nearest e4m3fn value as a conversion in a kernel does (ties to even, saturating at ±448). */
export function roundF8e4m3(x: number): number {
  return f8e4m3FromBits(f8e4m3ToBits(x, true));
}
