// A small vector add for the editor tests: sizes not multiples of the block, quick on lavapipe.
import { kernel, tl, defineRun, rand, empty, cdiv, builtins } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_kernel = kernel(function add_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, BLOCK_SIZE: constexpr,
) {
  const pid = tl.programId(0);
  const offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  const y = tl.load(y_ptr + offsets, mask);
  tl.store(output_ptr + offsets, x + y, mask);
});

export const smallAdd = defineRun({
  kernel: add_kernel,
  sizes: [10_000, 1_000, 33_333],
  constexprs: { BLOCK_SIZE: 256 },
  grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), output_ptr: empty(n), n_elements: n }),
  outputs: ["output_ptr"],
  reference: ({ x_ptr, y_ptr }) => ({ output_ptr: x_ptr.map((v, i) => v + y_ptr[i]) }),
  bytes: (n) => 12 * n,
  baseline: builtins.add,
});
