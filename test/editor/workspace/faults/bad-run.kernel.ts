// A run whose args leave out the kernel's `n`: KL3017 at the run, and the file is left alone.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const copy_kernel = kernel(function copy_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, offsets < n), offsets < n);
});

export const missingArg = defineRun({
  kernel: copy_kernel,
  sizes: [1000],
  constexprs: { BLOCK: 128 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), out_ptr: empty(n) }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr }),
});
