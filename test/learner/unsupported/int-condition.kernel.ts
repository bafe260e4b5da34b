// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton tutorial 04's _dropout as written: tl.where(x_keep, x / (1 - p), 0.0) with x_keep an
// integer block. Construct: an integer block used as tl.where's condition.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const _dropout = kernel(function _dropout(x_ptr: Ptr<f32>, x_keep_ptr: Ptr<i32>, output_ptr: Ptr<f32>, n_elements: i32, p: f32, BLOCK_SIZE: constexpr) {
  const offsets = tl.programId(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  const x_keep = tl.load(x_keep_ptr + offsets, mask);
  tl.store(output_ptr + offsets, tl.where(x_keep, x / (1 - p), 0.0), mask);
});

export const dropout = defineRun({
  kernel: _dropout, sizes: [1000], constexprs: { BLOCK_SIZE: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: randn(n), x_keep_ptr: new Int32Array(n).fill(1), output_ptr: empty(n), n_elements: n, p: 0.5 }), outputs: ["output_ptr"],
  reference: ({ x_ptr }) => ({ output_ptr: x_ptr.map((v) => v * 2) }),
});
