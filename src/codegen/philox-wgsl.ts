// The WGSL of Kernel Lab's random numbers: Philox 4×32-10 and Triton's conversions to floats,
// the same arithmetic as ir/philox.ts (the interpreter's), so a kernel's stream is identical on
// every GPU and on the CPU. A shader that draws random numbers includes these functions once.
//
// WGSL has no 32×32 → 64-bit product: `kl_umulhi` builds the high word from 16-bit halves.
// The i32 → f32 conversion and the scale's product round to nearest-even on the GPUs we know
// (NVIDIA, lavapipe); WGSL itself allows either neighbour, so test/gpu checks the bits.

/**
 * The high word of a u32 product (also tl.umulhi's), from 16-bit halves: four products, none of
 * whose partial sums overflows (u = a1·b0 + (a0·b0 >> 16) and v = a0·b1 + (u & 0xffff) stay
 * below 2^32), so no carry needs its own add. With one operand a constant (Philox's multipliers)
 * its halves fold.
 */
export const UMULHI_WGSL = `
fn kl_umulhi(a: u32, b: u32) -> u32 {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let u = a1 * b0 + ((a0 * b0) >> 16u);
  let v = a0 * b1 + (u & 0xffffu);
  return a1 * b1 + (u >> 16u) + (v >> 16u);
}
`;

// One Philox round. The ten are written out (NVIDIA's compiler left WGSL loops rolled in
// bench/NOTES.md §5): the keys become constants added to the seed, and a caller that uses one
// word of the result (tl.rand) lets the compiler drop the rest of the last round.
const PHILOX_ROUND = `
  c = vec4<u32>(kl_umulhi(0xcd9e8d57u, c.z) ^ c.y ^ k.x, 0xcd9e8d57u * c.z, kl_umulhi(0xd2511f53u, c.x) ^ c.w ^ k.y, 0xd2511f53u * c.x);
  k = k + vec2<u32>(0x9e3779b9u, 0xbb67ae85u);`;

/** Philox and the conversions; they call kl_umulhi. */
export const PHILOX_ROUNDS_WGSL = `
fn kl_philox(counter: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
  var c = counter;
  var k = key;${PHILOX_ROUND.repeat(10)}
  return c;
}

// Triton's randint4x(seed, offset): counter (offset, 0, 0, 0), key (seed, sign-extended high word).
fn kl_randint4x(seed: i32, offset: i32) -> vec4<u32> {
  return kl_philox(vec4<u32>(bitcast<u32>(offset), 0u, 0u, 0u), vec2<u32>(bitcast<u32>(seed), select(0u, 0xffffffffu, seed < 0)));
}

// Triton's uint_to_uniform_float: the word as i32, folded to non-negative (~x is -x - 1), times 2^-31.
fn kl_uniform(word: u32) -> f32 {
  let x = bitcast<i32>(word);
  return f32(select(x, ~x, x < 0)) * 4.6566127342e-10;
}

// Triton's randn: Box–Muller on two words.
fn kl_normal(w0: u32, w1: u32) -> f32 {
  let u1 = max(1.0e-7, kl_uniform(w0));
  let th = 6.283185307179586 * kl_uniform(w1);
  return sqrt(-2.0 * log(u1)) * cos(th);
}
`;

/** Philox with another count of rounds than ten (tl.philox's n_rounds): the same round, in a loop. */
export const PHILOX_N_ROUNDS_WGSL = `
fn kl_philox_rounds(counter: vec4<u32>, key: vec2<u32>, rounds: u32) -> vec4<u32> {
  var c = counter;
  var k = key;
  for (var r = 0u; r < rounds; r++) {${PHILOX_ROUND.replace(/\n/g, "\n  ")}
  }
  return c;
}
`;

export const PHILOX_WGSL = UMULHI_WGSL + PHILOX_ROUNDS_WGSL;
