// libdevice's asin, acos and atan (Triton's tutorial 07 calls libdevice.asin), log1p and expm1 in WGSL. WGSL's own
// builtins are allowed 4096 ULP (their accuracy is atan2's): lavapipe's asin was 3.9e-4 from
// torch.asin near ±1, where CUDA's asinf is within 2 ULP. These are Cephes' single-precision
// polynomials (asinf, acosf, atanf; a few ULP over their whole range), evaluated in f32; an f16
// operand goes through f32. The interpreter computes the functions exactly (ir/special-math.ts).

export const INVERSE_TRIG_WGSL = `
fn kl_asin(x: f32) -> f32 {
  let a = abs(x);
  let big = a > 0.5;
  // Above 0.5: asin(a) = pi/2 - 2 asin(sqrt((1 - a) / 2)), the polynomial's argument small again.
  let z = select(a * a, 0.5 * (1.0 - a), big);
  let s = select(a, sqrt(z), big);
  let p = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z + 1.6666752422e-1) * z * s + s;
  let r = select(p, 1.5707963267948966 - 2.0 * p, big);
  return select(r, -r, x < 0.0);
}

fn kl_acos(x: f32) -> f32 {
  if (x < -0.5) { return 3.141592653589793 - 2.0 * kl_asin(sqrt(0.5 * (1.0 + x))); }
  if (x > 0.5) { return 2.0 * kl_asin(sqrt(0.5 * (1.0 - x))); }
  return 1.5707963267948966 - kl_asin(x);
}

fn kl_atan(x: f32) -> f32 {
  let a = abs(x);
  // Reduced to |t| <= tan(pi/8): atan(a) = pi/2 + atan(-1/a) above tan(3pi/8), pi/4 + atan((a-1)/(a+1)) above tan(pi/8).
  var base = 0.0;
  var t = a;
  if (a > 2.414213562373095) {
    base = 1.5707963267948966;
    t = -1.0 / a;
  } else if (a > 0.4142135623730950) {
    base = 0.7853981633974483;
    t = (a - 1.0) / (a + 1.0);
  }
  let z = t * t;
  let r = base + ((((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - 3.33329491539e-1) * z * t + t);
  return select(r, -r, x < 0.0);
}

// libdevice's log1p and expm1 (apple/ml-cross-entropy's logaddexp calls libdevice.log1p): near 0, 1 + x
// rounds x's low digits away and WGSL's log is only 2^-21 absolute on [0.5, 2]. For x in (-0.5, 1),
// log1p(x) = 2 atanh(s) with s = x / (2 + x) (|s| <= 1/3), its odd series to s^15; log(1 + x) outside.
fn kl_log1p(x: f32) -> f32 {
  if (x <= -0.5 || x >= 1.0) { return log(1.0 + x); }
  let s = x / (2.0 + x);
  let z = s * s;
  return 2.0 * s * (1.0 + z * (1.0 / 3.0 + z * (0.2 + z * (1.0 / 7.0 + z * (1.0 / 9.0 + z * (1.0 / 11.0 + z * (1.0 / 13.0 + z / 15.0)))))));
}

// expm1(x): Taylor's series to x^10 for |x| < 0.5 (truncation < 3e-11), exp(x) - 1 outside.
fn kl_expm1(x: f32) -> f32 {
  if (abs(x) >= 0.5) { return exp(x) - 1.0; }
  return x * (1.0 + x / 2.0 * (1.0 + x / 3.0 * (1.0 + x / 4.0 * (1.0 + x / 5.0 * (1.0 + x / 6.0 * (1.0 + x / 7.0 * (1.0 + x / 8.0 * (1.0 + x / 9.0 * (1.0 + x / 10.0)))))))));
}
`;
