// Philox 4×32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), the
// counter-based generator behind Triton's tl.rand/randn/randint/randint4x. The interpreter uses
// it; the WGSL the code generator writes computes the same rounds, so a kernel draws the same
// stream on every GPU and on the CPU (a dropout mask can be regenerated in a backward pass).
//
// Triton's convention (python/triton/language/random.py): key = (seed low 32 bits, seed high 32
// bits), counter = (offset, 0, 0, 0); `randint` is the first word of the four.

export const PHILOX_ROUND_A = 0xd2511f53;
export const PHILOX_ROUND_B = 0xcd9e8d57;
export const PHILOX_KEY_A = 0x9e3779b9;
export const PHILOX_KEY_B = 0xbb67ae85;
export const PHILOX_ROUNDS = 10;

/** The high 32 bits of the 64-bit product of two u32s. */
export function umulhi(a: number, b: number): number {
  return Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n);
}

/** Philox 4×32 on counter (c0..c3) and key (k0, k1): four u32 words. */
export function philox4x32(
  counter: readonly [number, number, number, number],
  key: readonly [number, number],
  rounds = PHILOX_ROUNDS,
): [number, number, number, number] {
  let [c0, c1, c2, c3] = counter.map((c) => c >>> 0);
  let [k0, k1] = key.map((k) => k >>> 0);
  for (let r = 0; r < rounds; r++) {
    const a = c0;
    const b = c2;
    c0 = (umulhi(PHILOX_ROUND_B, b) ^ c1 ^ k0) >>> 0;
    c2 = (umulhi(PHILOX_ROUND_A, a) ^ c3 ^ k1) >>> 0;
    c1 = Math.imul(PHILOX_ROUND_B, b) >>> 0;
    c3 = Math.imul(PHILOX_ROUND_A, a) >>> 0;
    k0 = (k0 + PHILOX_KEY_A) >>> 0;
    k1 = (k1 + PHILOX_KEY_B) >>> 0;
  }
  return [c0, c1, c2, c3];
}

/**
 * Triton's split of a seed into Philox's key: `seed.to(tl.uint64)`, then its low and high words.
 * A signed seed is sign-extended (an i32 of -1 is 2^64 - 1), an unsigned one zero-extended.
 */
export function philoxKey(seed: number): [number, number] {
  return [seed >>> 0, seed < 0 ? 0xffffffff : Math.floor(seed / 2 ** 32) >>> 0];
}

/** Triton's randint4x(seed, offset) of a 32-bit offset: counter (offset, 0, 0, 0). */
export function randint4x(seed: number, offset: number, rounds = PHILOX_ROUNDS): [number, number, number, number] {
  return philox4x32([offset >>> 0, 0, 0, 0], philoxKey(seed), rounds);
}

/** Triton's tl.philox(seed, c0, c1, c2, c3, n_rounds) on 32-bit counters: the four words. */
export function philox(seed: number, c0: number, c1: number, c2: number, c3: number, rounds = PHILOX_ROUNDS): [number, number, number, number] {
  return philox4x32([c0, c1, c2, c3], philoxKey(seed), rounds);
}

/** Triton's uint_to_uniform_float for 32-bit words: a float in [0, 1), rounded to f32. */
export function uniformFromU32(word: number): number {
  const x = word | 0;
  const magnitude = x < 0 ? -x - 1 : x;
  return Math.fround(Math.fround(magnitude) * Math.fround(4.6566127342e-10));
}

/** Triton's randn: Box–Muller on the first two words, f32 arithmetic as on the GPU. */
export function normalFromU32Pair(w0: number, w1: number): number {
  const f = Math.fround;
  const u1 = Math.max(f(1.0e-7), uniformFromU32(w0));
  const th = f(f(6.283185307179586) * uniformFromU32(w1));
  const r = f(Math.sqrt(f(f(-2.0) * f(Math.log(u1)))));
  return f(r * f(Math.cos(th)));
}
