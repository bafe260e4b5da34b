// The WGSL of issue 11's math functions (ir/special-math.ts computes the same on the CPU). WGSL has
// no erf, no 32×32 → 64-bit product, and its pow is undefined for a negative base: those are
// helper functions (helpers.ts adds each to the module once, where the body calls it).

import type { SpecialMathFn } from "../ir/ir";

/** WGSL expression of the result from the operands' registers; `t` is the result's WGSL type. */
export const SPECIAL_MATH_WGSL: Record<SpecialMathFn, (args: readonly string[], t: string) => string> = {
  exp2: (args) => `exp2(${args[0]})`,
  log2: (args) => `log2(${args[0]})`,
  // tanh(±15) is ±1 in f32 and f16; clamping first keeps drivers that compute tanh through exp(2x) from giving inf/inf.
  tanh: (args, t) => `tanh(clamp(${args[0]}, ${t}(-15), ${t}(15)))`,
  erf: (args, t) => (t === "f32" ? `kl_erf(${args[0]})` : `${t}(kl_erf(f32(${args[0]})))`),
  pow: (args, t) => (t === "f32" ? `kl_pow(${args[0]}, ${args[1]})` : `${t}(kl_pow(f32(${args[0]}), f32(${args[1]})))`),
  umulhi: (args, t) => (t === "u32" ? `kl_umulhi(${args[0]}, ${args[1]})` : `bitcast<i32>(kl_umulhi(bitcast<u32>(${args[0]}), bitcast<u32>(${args[1]})))`),
  clamp: (args) => `min(max(${args[0]}, ${args[1]}), ${args[2]})`,
  divRn: (args, t) => (t === "f32" ? `kl_div_rn(${args[0]}, ${args[1]})` : `${t}(kl_div_rn(f32(${args[0]}), f32(${args[1]})))`),
  sqrtRn: (args, t) => (t === "f32" ? `kl_sqrt_rn(${args[0]})` : `${t}(kl_sqrt_rn(f32(${args[0]})))`),
  // inverse-trig.ts: Cephes' polynomials, not WGSL's builtins (4096 ULP allowed).
  asin: (args, t) => (t === "f32" ? `kl_asin(${args[0]})` : `${t}(kl_asin(f32(${args[0]})))`),
  acos: (args, t) => (t === "f32" ? `kl_acos(${args[0]})` : `${t}(kl_acos(f32(${args[0]})))`),
  atan: (args, t) => (t === "f32" ? `kl_atan(${args[0]})` : `${t}(kl_atan(f32(${args[0]})))`),
  // inverse-trig.ts too: series near 0, where log(1 + x) and exp(x) - 1 lose x's digits.
  log1p: (args, t) => (t === "f32" ? `kl_log1p(${args[0]})` : `${t}(kl_log1p(f32(${args[0]})))`),
  expm1: (args, t) => (t === "f32" ? `kl_expm1(${args[0]})` : `${t}(kl_expm1(f32(${args[0]})))`),
  // gamma-erfc.ts: Cephes' lgamf and Numerical Recipes' erfcc in f32.
  lgamma: (args, t) => (t === "f32" ? `kl_lgamma(${args[0]})` : `${t}(kl_lgamma(f32(${args[0]})))`),
  erfc: (args, t) => (t === "f32" ? `kl_erfc(${args[0]})` : `${t}(kl_erfc(f32(${args[0]})))`),
  erfcx: (args, t) => (t === "f32" ? `kl_erfcx(${args[0]})` : `${t}(kl_erfcx(f32(${args[0]})))`),
  // An i32's or u32's bits counted, as an i32 (WGSL's i32(u32) keeps the bits: firstTrailingBit's 0xffffffff is -1).
  popc: (args) => `i32(countOneBits(${args[0]}))`,
  clz: (args) => `i32(countLeadingZeros(${args[0]}))`,
  ffs: (args) => `(i32(firstTrailingBit(${args[0]})) + 1)`,
  // x.to(tl.float8e4nv) of an f32 (f8.ts): the nearest e4m3fn value, saturating, held as an f32.
  roundF8e4m3: (args) => `kl_f8e4m3(${args[0]})`,
  roundF8e5m2: (args) => `kl_f8e5m2(${args[0]})`,
};

// tl.div_rn / tl.sqrt_rn: WGSL's x / y (2.5 ULP) and sqrt (inherited from inverseSqrt) are not
// correctly rounded. tl.div_rn of normal operands with a normal quotient divides the significands as
// integers (24 quotient bits, a guard bit and the remainder as the sticky bit) and rounds to nearest
// even: exact on any GPU. The rest (a zero, infinite or NaN operand or quotient, a subnormal) and
// tl.sqrt_rn take one correction with the residual from an fma, which rounds them to nearest where the
// GPU's fma is fused (NVIDIA, AMD); lavapipe's is not (x * y + z rounded twice), so there the division
// needs the integer path: with the fma alone 402 of 4096 quotients were 1 ULP off (NOTES-tunary).
export const ROUNDED_WGSL = `
fn kl_div_rn(x: f32, y: f32) -> f32 {
  let bx = bitcast<u32>(x);
  let by = bitcast<u32>(y);
  let ex = (bx >> 23u) & 0xffu;
  let ey = (by >> 23u) & 0xffu;
  if (ex != 0u && ex != 255u && ey != 0u && ey != 255u) {
    var mx = (bx & 0x7fffffu) | 0x800000u;
    let my = (by & 0x7fffffu) | 0x800000u;
    var e = i32(ex) - i32(ey) + 127;
    if (mx < my) { mx = mx << 1u; e = e - 1; }
    var r = mx;
    var q = 0u;
    for (var i = 0; i < 24; i = i + 1) {
      q = q << 1u;
      if (r >= my) { r = r - my; q = q | 1u; }
      r = r << 1u;
    }
    let guard = r >= my;
    let sticky = select(r, r - my, guard) != 0u;
    if (guard && (sticky || (q & 1u) == 1u)) { q = q + 1u; }
    if (q == 0x1000000u) { q = q >> 1u; e = e + 1; }
    if (e > 0 && e < 255) { return bitcast<f32>(((bx ^ by) & 0x80000000u) | (u32(e) << 23u) | (q & 0x7fffffu)); }
  }
  let q = x / y;
  if (q == 0.0 || !(abs(q) < 3.0e38) || !(abs(y) < 3.0e38)) { return q; }
  let r = fma(-q, y, x);
  return fma(r, 1.0 / y, q);
}

fn kl_sqrt_rn(x: f32) -> f32 {
  let s = sqrt(x);
  if (!(x > 0.0) || !(s < 3.0e38)) { return s; }
  let r = fma(-s, s, x);
  return fma(r, 0.5 / s, s);
}
`;

// ir/special-math.ts erfApprox: the series below 0.5, Abramowitz–Stegun 7.1.26 above (|error| ≤ 1.5e-7).
export const ERF_WGSL = `
fn kl_erf(x: f32) -> f32 {
  let a = abs(x);
  if (a < 0.5) {
    let x2 = x * x;
    let sum = ((((-1.0 / 1320.0 * x2 + 1.0 / 216.0) * x2 - 1.0 / 42.0) * x2 + 0.1) * x2 - 1.0 / 3.0) * x2 + 1.0;
    return 1.1283791670955126 * x * sum;
  }
  let t = 1.0 / (1.0 + 0.3275911 * a);
  let poly = (((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592;
  let y = 1.0 - poly * t * exp(-a * a);
  return select(y, -y, x < 0.0);
}
`;

// C's powf where WGSL's pow (exp2(y * log2(x))) is undefined: x < 0 with an integer y, and x = 0.
export const POW_WGSL = `
fn kl_pow(x: f32, y: f32) -> f32 {
  if (y == 0.0) { return 1.0; }
  let whole = floor(y) == y;
  // NaN and infinity aren't WGSL constants: OR-ing a run-time zero keeps them from being folded.
  let zero = bitcast<u32>(x) & 0u;
  if (x < 0.0 && !whole) { return bitcast<f32>(0x7fc00000u | zero); }
  if (x == 0.0) { return select(0.0, bitcast<f32>(0x7f800000u | zero), y < 0.0); }
  let m = pow(abs(x), y);
  return select(m, -m, x < 0.0 && fract(y * 0.5) != 0.0);
}
`;
