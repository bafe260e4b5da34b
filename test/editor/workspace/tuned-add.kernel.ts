// A vector add with autotuning candidates, for the Retune Kernel test.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const tuned_add = kernel(function tuned_add(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, BLOCK_SIZE: constexpr,
) {
  const offsets = tl.programId(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask) + tl.load(y_ptr + offsets, mask), mask);
});

export const tunedAdd = defineRun({
  kernel: tuned_add,
  sizes: [5_000],
  configs: [{ BLOCK_SIZE: 256 }, { BLOCK_SIZE: 1024 }],
  grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), output_ptr: empty(n), n_elements: n }),
  outputs: ["output_ptr"],
  reference: ({ x_ptr, y_ptr }) => ({ output_ptr: x_ptr.map((v, i) => v + y_ptr[i]) }),
  bytes: (n) => 12 * n,
});
