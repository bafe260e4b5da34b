// Broken on purpose (editor tests): blocks of 64 and 128 elements can't be added.
import { kernel, tl, defineRun, rand, empty } from "kernel-lab";
import type { Ptr, f32 } from "kernel-lab";

export const mismatch_kernel = kernel(function mismatch_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>) {
  const x = tl.load(x_ptr + tl.arange(0, 64));
  const y = tl.load(x_ptr + tl.arange(0, 128));
  tl.store(out_ptr + tl.arange(0, 64), x + y);
});

export const mismatchRun = defineRun({
  kernel: mismatch_kernel,
  sizes: [128],
  grid: () => [1],
  args: (n) => ({ x_ptr: rand(n), out_ptr: empty(n) }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr }),
});
