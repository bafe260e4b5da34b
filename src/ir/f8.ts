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

// fp8 e5m2 ("f8e5m2": torch.float8_e5m2, Triton's tl.float8e5; OCP FP8's E5M2): 1 sign bit, 5 exponent bits
// (bias 15), 2 mantissa bits — an f16's top byte, so it has infinities (S.11111.00) and NaNs (S.11111.xx), the
// largest finite value 57344 and the smallest subnormal 2^-16. Converting rounds to nearest even in both ways;
// past 57344 (|x| >= 61440, rounding up) torch gives ±inf (as IEEE rounding does), Triton's satfinite ±57344.

/** The value of an e5m2 bit pattern (exact in an f32). */
export function f8e5m2FromBits(bits: number): number {
  const sign = bits & 0x80 ? -1 : 1;
  const exponent = (bits >> 2) & 0x1f;
  const mantissa = bits & 3;
  if (exponent === 31) return mantissa === 0 ? sign * Infinity : NaN;
  if (exponent === 0) return sign * mantissa * 2 ** -16;
  return sign * (1 + mantissa / 4) * 2 ** (exponent - 15);
}

/** The e5m2 bit pattern of `x` (held as an f32), rounded to nearest even; past the largest finite value ±inf (torch) or ±57344 (`saturate`, Triton). */
export function f8e5m2ToBits(x: number, saturate: boolean): number {
  f32[0] = x;
  const bits = u32[0];
  const sign = (bits >>> 24) & 0x80;
  let magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) return sign | 0x7f;
  // 57344 = 0x47600000; 65536 = 0x47800000 and past it (infinities too) is inf however it rounds.
  if (saturate) magnitude = Math.min(magnitude, 0x47600000);
  else if (magnitude >= 0x47800000) return sign | 0x7c;
  const exponent = magnitude >>> 23;
  if (exponent < 113) {
    // Under 2^-14 (the smallest normal): a count of 2^-16s, rounded to even; under 2^-17 (half the smallest) 0.
    if (exponent < 110) return sign;
    const significand = (magnitude & 0x7fffff) | 0x800000;
    const shift = 134 - exponent; // 22 … 24
    const kept = significand >>> shift;
    const dropped = significand & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    return sign | (kept + (dropped > half || (dropped === half && kept & 1) ? 1 : 0));
  }
  const odd = (magnitude >>> 21) & 1;
  return sign | (((magnitude - (112 << 23) + 0xfffff + odd) >>> 21) & 0x7f);
}

/** Rounds to the nearest e5m2 value as a conversion in a kernel does (ties to even, saturating at ±57344). */
export function roundF8e5m2(x: number): number {
  return f8e5m2FromBits(f8e5m2ToBits(x, true));
}
