// IEEE 754 binary16 ("f16"): rounding a number to the nearest half, and the 16-bit pattern a
// `Uint16Array` holds for a `Ptr<f16>` buffer, so f16 data round-trips exactly as WGSL sees it.

const MAX_FINITE = 65504;
const MIN_NORMAL_EXPONENT = -14;
const MANTISSA_BITS = 10;

/** Rounds to the nearest f16 value, ties to even; beyond the largest finite half gives ±Infinity. */
export function roundF16(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const magnitude = Math.abs(x);
  // Below the smallest normal the spacing stays fixed at 2^-24 (subnormals).
  const exponent = Math.max(floorLog2(magnitude), MIN_NORMAL_EXPONENT);
  const ulp = 2 ** (exponent - MANTISSA_BITS);
  const rounded = roundHalfToEven(magnitude / ulp) * ulp;
  if (rounded > MAX_FINITE) return x > 0 ? Infinity : -Infinity;
  return x < 0 ? -rounded : rounded;
}

/** The value of a half's bit pattern. */
export function f16FromBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> MANTISSA_BITS) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (0x400 + mantissa) * 2 ** (exponent - 25);
}

/** The bit pattern of `x` rounded to a half (NaN becomes the quiet NaN 0x7e00). */
export function f16ToBits(x: number): number {
  const value = roundF16(x);
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  if (magnitude === Infinity) return sign | 0x7c00;
  if (magnitude < 2 ** MIN_NORMAL_EXPONENT) return sign | (magnitude * 2 ** 24);
  const exponent = floorLog2(magnitude);
  const mantissa = (magnitude / 2 ** exponent) * 0x400 - 0x400;
  return sign | ((exponent + 15) << MANTISSA_BITS) | mantissa;
}

/** floor(log2(x)) for a positive finite x, exact (Math.log2 may round up just below a power of two). */
function floorLog2(x: number): number {
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  else if (2 ** (e + 1) <= x) e++;
  return e;
}

function roundHalfToEven(v: number): number {
  const floor = Math.floor(v);
  const fraction = v - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
