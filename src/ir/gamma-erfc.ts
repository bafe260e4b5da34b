// libdevice's lgamma, erfc and erfcx in double precision: what the interpreter computes (rounded once to
// the result's dtype, as its asin and log1p are exact) and what Kernel Lab's torch computes for
// torch.lgamma / torch.erfc / torch.special.erfcx. The WGSL (codegen/gamma-erfc.ts) evaluates f32
// approximations of the same functions.

// Lanczos' approximation with g = 7 and 9 terms: relative error below 1e-15 for x >= 0.5.
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
] as const;

/** log |Γ(x)|: +Infinity at 0, the negative integers and ±Infinity; NaN stays NaN. */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Infinity;
  if (x < 0.5) {
    // Reflection: Γ(x) Γ(1 - x) = π / sin(π x); sin(π x) taken of x's distance to the nearest integer.
    if (x === Math.floor(x)) return Infinity;
    const r = x - Math.round(x);
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * r))) - lgamma(1 - x);
  }
  if (x === 1 || x === 2) return 0;
  const y = x - 1;
  let a = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i] / (y + i);
  const t = y + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** erf's Maclaurin series (|x| < 2.5: 1 - erf loses at most 4 of its 16 digits there). */
function erfSeries(x: number): number {
  let sum = x;
  let term = x;
  const x2 = x * x;
  for (let n = 1; n < 100; n++) {
    term *= -x2 / n;
    const add = term / (2 * n + 1);
    sum += add;
    if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

/** exp(x²) erfc(x) for x >= 2.5, by Lentz's continued fraction (no exp: no underflow). */
function erfcxTail(x: number): number {
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 300; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? 1e-300 : 1 / d;
    c = x + a / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return 1 / (Math.sqrt(Math.PI) * f);
}

/** The error function to double precision (its series below 2.5; 1 - erfc above, where erfc is below 4e-4). */
export function erf(x: number): number {
  if (Math.abs(x) < 2.5 || Number.isNaN(x)) return erfSeries(x);
  return Math.sign(x) * (1 - erfc(Math.abs(x)));
}

/** The complementary error function 1 - erf(x), without 1 - erf's cancellation for large x. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === Infinity) return 0;
  if (x === -Infinity) return 2;
  if (x < 2.5) return x > -2.5 ? 1 - erfSeries(x) : 2 - erfc(-x);
  return erfcxTail(x) * Math.exp(-x * x);
}

/** The scaled complementary error function exp(x²) erfc(x); +Infinity where it overflows (x below about -26.6). */
export function erfcx(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === Infinity) return 0;
  if (x === -Infinity) return Infinity;
  if (x >= 2.5) return erfcxTail(x);
  if (x > -2.5) return Math.exp(x * x) * (1 - erfSeries(x));
  return 2 * Math.exp(x * x) - erfcxTail(-x);
}
