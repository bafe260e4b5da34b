// out = a * x + y: a scalar float argument next to two input blocks.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const saxpy_kernel = kernel(function saxpy_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, out_ptr: Ptr<f32>, a: f32, n: i32, BLOCK: constexpr,
) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  const y = tl.load(y_ptr + offsets, mask);
  tl.store(out_ptr + offsets, a * x + y, mask);
});

export const saxpy = defineRun({
  kernel: saxpy_kernel,
  sizes: [100_003, 1_000, 65_537, 1_000_001],
  constexprs: { BLOCK: 512 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), out_ptr: empty(n), a: 2.5, n }),
  outputs: ["out_ptr"],
  // fround: the kernel multiplies and adds in f32, so round like it does (an fma may still differ by an ulp).
  reference: ({ x_ptr, y_ptr, a }) => ({ out_ptr: x_ptr.map((x, i) => Math.fround(Math.fround(a * x) + y_ptr[i])) }),
  bytes: (n) => 12 * n,
  flops: (n) => 2 * n,
});
