// fp8 e4m3fn and e5m2 values in WGSL (ir/f8.ts says how they are held): the functions a kernel's WGSL takes
// when it loads, stores or converts to tl.float8e4nv / tl.float8e5. Integer arithmetic throughout (a shader
// compiler may assume floats are never NaN), the same steps as ir/f8.ts's f8e4m3ToBits.

/** e4m3fn's WGSL: the bit pattern's value, and an f32's pattern rounded as Triton's conversion (f8e4m3ToBits, saturating). */
export const F8E4M3_WGSL = `fn kl_f8e4m3_value(b: u32) -> f32 {
  let sign = (b & 0x80u) << 24u;
  let exponent = (b >> 3u) & 0xfu;
  let mantissa = b & 7u;
  if ((b & 0x7fu) == 0x7fu) { return bitcast<f32>(sign | 0x7fc00000u); }
  if (exponent == 0u) { return bitcast<f32>(sign | bitcast<u32>(f32(mantissa) * 0.001953125)); }
  return bitcast<f32>(sign | ((exponent + 120u) << 23u) | (mantissa << 20u));
}
fn kl_f8e4m3_bits(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  let sign = (b >> 24u) & 0x80u;
  let magnitude = min(b & 0x7fffffffu, 0x43e00000u);
  if ((b & 0x7fffffffu) > 0x7f800000u) { return sign | 0x7fu; }
  let exponent = magnitude >> 23u;
  if (exponent < 121u) {
    if (exponent < 117u) { return sign; }
    let significand = (magnitude & 0x7fffffu) | 0x800000u;
    let shift = 141u - exponent;
    let kept = significand >> shift;
    let dropped = significand & ((1u << shift) - 1u);
    let half = 1u << (shift - 1u);
    return sign | (kept + select(0u, 1u, dropped > half || (dropped == half && (kept & 1u) == 1u)));
  }
  let odd = (magnitude >> 20u) & 1u;
  return sign | (((magnitude - 0x3c000000u + 0x7ffffu + odd) >> 20u) & 0x7fu);
}
fn kl_f8e4m3(x: f32) -> f32 {
  return kl_f8e4m3_value(kl_f8e4m3_bits(x));
}
`;

/** e5m2's WGSL (ir/f8.ts f8e5m2FromBits, f8e5m2ToBits saturating), the same steps. */
export const F8E5M2_WGSL = `fn kl_f8e5m2_value(b: u32) -> f32 {
  let sign = (b & 0x80u) << 24u;
  let exponent = (b >> 2u) & 0x1fu;
  let mantissa = b & 3u;
  if (exponent == 31u) { return bitcast<f32>(sign | select(0x7fc00000u, 0x7f800000u, mantissa == 0u)); }
  if (exponent == 0u) { return bitcast<f32>(sign | bitcast<u32>(f32(mantissa) * 0.0000152587890625)); }
  return bitcast<f32>(sign | ((exponent + 112u) << 23u) | (mantissa << 21u));
}
fn kl_f8e5m2_bits(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  let sign = (b >> 24u) & 0x80u;
  let magnitude = min(b & 0x7fffffffu, 0x47600000u);
  if ((b & 0x7fffffffu) > 0x7f800000u) { return sign | 0x7fu; }
  let exponent = magnitude >> 23u;
  if (exponent < 113u) {
    if (exponent < 110u) { return sign; }
    let significand = (magnitude & 0x7fffffu) | 0x800000u;
    let shift = 134u - exponent;
    let kept = significand >> shift;
    let dropped = significand & ((1u << shift) - 1u);
    let half = 1u << (shift - 1u);
    return sign | (kept + select(0u, 1u, dropped > half || (dropped == half && (kept & 1u) == 1u)));
  }
  let odd = (magnitude >> 21u) & 1u;
  return sign | (((magnitude - 0x38000000u + 0xfffffu + odd) >> 21u) & 0x7fu);
}
fn kl_f8e5m2(x: f32) -> f32 {
  return kl_f8e5m2_value(kl_f8e5m2_bits(x));
}
`;
