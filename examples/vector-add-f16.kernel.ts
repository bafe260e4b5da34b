// Vector add in half precision: 2 bytes an element each way, so on a memory-bound GPU it should
// take half the time of the f32 add (examples/vector-add.kernel.ts). Needs the adapter feature
// `shader-f16` (lavapipe has it; on NVIDIA Kernel Lab turns on Dawn's toggle for it, README).
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f16, i32, constexpr } from "kernel-lab";

export const add_f16_kernel = kernel(function add_f16_kernel(
  x_ptr: Ptr<f16>, y_ptr: Ptr<f16>, output_ptr: Ptr<f16>, n_elements: i32, BLOCK_SIZE: constexpr,
) {
  const offsets = tl.programId(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask) + tl.load(y_ptr + offsets, mask), mask);
});

export const vectorAddF16 = defineRun({
  kernel: add_f16_kernel,
  sizes: [98433],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  // Inputs are rounded to f16 on the way in; the reference sees the rounded values and the
  // check allows the one rounding of the f16 sum.
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), output_ptr: empty(n), n_elements: n }),
  outputs: ["output_ptr"],
  reference: ({ x_ptr, y_ptr }) => ({ output_ptr: x_ptr.map((v, i) => v + y_ptr[i]) }),
  bytes: (n) => 6 * n,
});
