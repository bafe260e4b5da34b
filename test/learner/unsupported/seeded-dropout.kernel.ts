// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton tutorial 04 "Low-Memory Dropout" (triton-lang/triton python/tutorials/04-low-memory-dropout.py),
// its second kernel _seeded_dropout. Construct: tl.rand(seed, offsets) (Philox random numbers).
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const _seeded_dropout = kernel(function _seeded_dropout(x_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, p: f32, seed: i32, BLOCK_SIZE: constexpr) {
  const pid = tl.programId(0);
  const offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  const random = tl.rand(seed, offsets);
  const x_keep = random > p;
  tl.store(output_ptr + offsets, tl.where(x_keep, x / (1 - p), 0.0), mask);
});

export const seededDropout = defineRun({
  kernel: _seeded_dropout, sizes: [1000], constexprs: { BLOCK_SIZE: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: randn(n), output_ptr: empty(n), n_elements: n, p: 0.5, seed: 123 }), outputs: ["output_ptr"],
  reference: ({ x_ptr }) => ({ output_ptr: x_ptr }),
});
