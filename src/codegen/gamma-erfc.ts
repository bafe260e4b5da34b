// libdevice's lgamma, erfc and erfcx in WGSL, evaluated in f32 (an f16 operand goes through f32); the
// interpreter computes them in double precision (ir/gamma-erfc.ts).

// lgamma: Cephes' lgamf. From 6.5 up, Stirling's series with three terms (from 1e4 up, its first terms
// alone); on [0.75, 1.25), lgamma(1 + t) = t C(t); elsewhere below 6.5, the argument moved into
// [1.5, 2.5] by Γ(x + 1) = x Γ(x), the factors' product z kept, and lgamma(2 + t) = t B(t), so near the
// zeros at 1 and 2 the result keeps its relative accuracy. Below 0, the reflection
// Γ(x) Γ(1 - x) = π / sin(π x), sin taken of x's distance to the nearest integer. 0, the negative
// integers and ±∞ give +∞ (as C's lgammaf); the ±∞ and NaN tests read the bits (a shader compiler
// may assume floats are finite).
export const LGAMMA_WGSL = `
fn kl_lgamma_positive(x0: f32) -> f32 {
  let w = 1.0 / x0;
  let w2 = w * w;
  let series = select(((6.789774945028216e-4 * w2 - 2.769887652139868e-3) * w2 + 8.333316229807355e-2) * w, 0.0, x0 > 1.0e4);
  let stirling = (x0 - 0.5) * log(x0) - x0 + 0.9189385332046727 + series;
  let c = x0 - 1.0;
  let near_one = c * (((((((1.369488127325832e-1 * c - 1.590086327657347e-1) * c + 1.692415923504637e-1) * c - 2.067882815621965e-1) * c + 2.705806208275915e-1) * c - 4.006931650563372e-1) * c + 8.224670749082976e-1) * c - 5.772156501719101e-1);
  // Straight-line (no loop for the shader compiler to unroll at every call): down steps from (2.5, 6.5),
  // up steps from below 1.5, z the factors' product.
  let down = clamp(ceil(x0 - 2.5), 0.0, 4.0);
  let up = select(0.0, select(1.0, 2.0, x0 < 0.5), x0 < 1.5);
  var z = select(1.0, x0 - 1.0, down >= 1.0) * select(1.0, x0 - 2.0, down >= 2.0);
  z = z * select(1.0, x0 - 3.0, down >= 3.0) * select(1.0, x0 - 4.0, down >= 4.0);
  z = z * select(1.0, x0, up >= 1.0) * select(1.0, x0 + 1.0, up >= 2.0);
  let t = x0 - down + up - 2.0;
  let p = t * (((((((6.055172732649237e-4 * t - 1.311620815545743e-3) * t + 2.863437556468661e-3) * t - 7.366775108654962e-3) * t + 2.058355474821512e-2) * t - 6.735323259371034e-2) * t + 3.224669577325661e-1) * t + 4.227843421859038e-1);
  let shifted = select(p - log(z), p + log(z), down > 0.0);
  return select(select(shifted, near_one, x0 >= 0.75 && x0 < 1.25), stirling, x0 >= 6.5);
}

fn kl_lgamma(x: f32) -> f32 {
  let bits = bitcast<u32>(x) & 0x7fffffffu;
  let inf = bitcast<f32>(0x7f800000u | (bits & 0u));
  if (bits > 0x7f800000u) { return x; }
  if (bits == 0x7f800000u || x == 0.0) { return inf; }
  if (x > 0.0) { return kl_lgamma_positive(x); }
  let q = -x;
  let n = floor(q);
  if (n == q) { return inf; }
  let r = min(q - n, n + 1.0 - q);
  // log(π / (q sin(π r))) as a sum: the product underflows for tiny q.
  return 1.1447298858494002 - log(q) - log(sin(3.141592653589793 * r)) - kl_lgamma_positive(q);
}
`;

// erfc and erfcx: Numerical Recipes' erfcc, whose Chebyshev fit t exp(-z² + P(t)), t = 1 / (1 + z / 2),
// has a relative error below 1.2e-7 for z >= 0. erfcx leaves out the exp(-z²): no underflow, and
// 1 / (z √π) as z grows. exp(-z²) is taken as exp(-h²) exp(-(z - h)(z + h)), h being z with its low 12
// bits cleared so h² is exact: z² rounded would cost z² × 2⁻²⁴ of relative accuracy (1e-5 at z = 9).
// Below 0, erfc(x) = 2 - erfc(-x) and erfcx(x) = 2 exp(x²) - erfcx(-x).
export const ERFC_WGSL = `
fn kl_erfcx_positive(z: f32) -> f32 {
  let t = 1.0 / (1.0 + 0.5 * z);
  return t * exp(-1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
}

// exp(s z²) for s = ±1.
fn kl_exp_square(z: f32, s: f32) -> f32 {
  let h = bitcast<f32>(bitcast<u32>(z) & 0xfffff000u);
  return exp(s * h * h) * exp(s * (z - h) * (z + h));
}

fn kl_erfc(x: f32) -> f32 {
  let bits = bitcast<u32>(x) & 0x7fffffffu;
  if (bits > 0x7f800000u) { return x; }
  let z = abs(x);
  // erfc(10) is 2e-45, below f32's smallest subnormal (and ∞ - ∞ would be NaN in kl_exp_square).
  let r = select(kl_erfcx_positive(z) * kl_exp_square(z, -1.0), 0.0, z >= 10.0);
  return select(r, 2.0 - r, x < 0.0);
}

fn kl_erfcx(x: f32) -> f32 {
  let bits = bitcast<u32>(x) & 0x7fffffffu;
  if (bits > 0x7f800000u) { return x; }
  if (x >= 0.0) { return kl_erfcx_positive(x); }
  // exp(x²) overflows f32 below -9.4.
  let inf = bitcast<f32>(0x7f800000u | (bits & 0u));
  if (x < -9.4) { return inf; }
  return 2.0 * kl_exp_square(x, 1.0) - kl_erfcx_positive(-x);
}
`;
