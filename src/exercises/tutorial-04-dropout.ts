// Triton tutorial 04, "Low-Memory Dropout" (triton-lang/triton, python/tutorials/04-low-memory-dropout.py, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "tutorial-04",
  series: "Triton tutorials",
  number: 4,
  title: "Low-Memory Dropout",
  file: "tutorial-04-dropout.kernel.ts",
  credit: "Triton's tutorial 04-low-memory-dropout.py (triton-lang/triton, MIT)",
  task: "Dropout without a stored mask: each element keeps its value scaled by 1 / (1 - p) when its random number is above p, else becomes 0, and the random numbers come from a seed, tl.rand(seed, offsets) — one per element, the same on every run, so a backward pass could draw them again. p = 0.5, seed 123, 10,007 elements in blocks of 1024.",
  template: `import { kernel, tl, defineRun, rand, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const seeded_dropout = kernel(function seeded_dropout(
  x_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, p: f32, seed: i32, BLOCK_SIZE: constexpr,
) {
$BODY
});

export const dropout = defineRun({
  kernel: seeded_dropout,
  sizes: [10007],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: rand(n), output_ptr: empty(n), n_elements: n, p: 0.5, seed: 123 }),
  outputs: ["output_ptr"],
  reference: exerciseReference("tutorial-04"),
  bytes: (n) => 8 * n,
});
`,
  stub: `  // TODO: the block's offsets and mask, load x, draw one random number per offset from the seed,
  // keep x / (1 - p) where it is above p, 0 elsewhere; store.`,
  solution: `  const pid = tl.programId(0);
  const offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  const random = tl.rand(seed, offsets);
  const x_keep = random > p;
  tl.store(output_ptr + offsets, tl.where(x_keep, x / (1 - p), 0.0), mask);`,
  hints: [
    "tl.rand(seed, offsets) gives a float in [0, 1) for each offset: element i always draws the same number for one seed.",
    "random > p is a mask; tl.where(mask, x / (1 - p), 0.0) picks element by element.",
  ],
};

// The reference draws Triton's numbers itself: Philox 4×32-10 on counter (offset, 0, 0, 0), key
// (seed, sign-extended), its first word as a uniform float, as examples/dropout.kernel.ts does.

const mulhi = (a: number, b: number) => Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n);

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

function uniform(word: number): number {
  const x = word | 0;
  return Math.fround(Math.fround(x < 0 ? -x - 1 : x) * Math.fround(4.6566127342e-10));
}

export function reference({ x_ptr, p, seed }: { x_ptr: Float32Array; p: number; seed: number }): Record<string, ArrayLike<number>> {
  return { output_ptr: x_ptr.map((x, i) => (uniform(philoxFirstWord(seed, i)) > Math.fround(p) ? x / (1 - Math.fround(p)) : 0)) };
}
