// Broken on purpose (editor tests): Math.exp runs on the CPU; the kernel must use tl.exp.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const exp_kernel = kernel(function exp_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  tl.store(out_ptr + offsets, Math.exp(x), mask);
});

export const expRun = defineRun({
  kernel: exp_kernel,
  sizes: [1000],
  constexprs: { BLOCK: 128 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), out_ptr: empty(n), n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr.map((v) => Math.fround(Math.exp(v))) }),
});
