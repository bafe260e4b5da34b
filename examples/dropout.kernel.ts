// Triton tutorial 04, "low-memory dropout": the mask is not stored but regenerated from a seed.
// tl.rand(seed, offsets) draws Philox 4×32-10 numbers in [0, 1), one per offset, the same on
// every GPU and on the CPU, so a backward pass with the same seed drops the same elements.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const seeded_dropout = kernel(function seeded_dropout(
  x_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, p: f32, seed: i32, BLOCK_SIZE: constexpr,
) {
  const pid = tl.programId(0);
  const offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  // Each element draws its own number, so the mask needs no memory.
  const random = tl.rand(seed, offsets);
  const x_keep = random > p;
  tl.store(output_ptr + offsets, tl.where(x_keep, x / (1 - p), 0.0), mask);
});

// ---- the reference: Philox 4×32-10 written out again on the CPU, independently of Kernel Lab ----

const mulhi = (a: number, b: number) => Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n);

/** Triton's randint(seed, offset): the first word of Philox on counter (offset, 0, 0, 0), key (seed, 0). */
function philoxFirstWord(seed: number, offset: number): number {
  let c0 = offset >>> 0, c1 = 0, c2 = 0, c3 = 0;
  let k0 = seed >>> 0, k1 = seed < 0 ? 0xffffffff : 0;
  for (let round = 0; round < 10; round++) {
    const a = c0, b = c2;
    c0 = (mulhi(0xcd9e8d57, b) ^ c1 ^ k0) >>> 0;
    c2 = (mulhi(0xd2511f53, a) ^ c3 ^ k1) >>> 0;
    c1 = Math.imul(0xcd9e8d57, b) >>> 0;
    c3 = Math.imul(0xd2511f53, a) >>> 0;
    k0 = (k0 + 0x9e3779b9) >>> 0;
    k1 = (k1 + 0xbb67ae85) >>> 0;
  }
  return c0;
}

/** Triton's uint_to_uniform_float: the word as i32, folded to non-negative, times 2^-31 (in f32). */
function uniform(word: number): number {
  const x = word | 0;
  return Math.fround(Math.fround(x < 0 ? -x - 1 : x) * Math.fround(4.6566127342e-10));
}

const SEED = 123;
const P = 0.5;

export const dropout = defineRun({
  kernel: seeded_dropout,
  sizes: [98_437, 1_000, 1 << 20],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: rand(n), output_ptr: empty(n), n_elements: n, p: P, seed: SEED }),
  outputs: ["output_ptr"],
  reference: ({ x_ptr, p, seed }) => ({
    output_ptr: x_ptr.map((x, i) => (uniform(philoxFirstWord(seed, i)) > p ? x / (1 - p) : 0)),
  }),
  bytes: (n) => 8 * n,
});
