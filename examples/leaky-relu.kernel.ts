// A leaky ReLU clamped to [-limit, limit]: tl.where for the activation, maximum/minimum for the clamp.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const leaky_relu_kernel = kernel(function leaky_relu_kernel(
  x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, slope: f32, limit: f32, n: i32, BLOCK: constexpr,
) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  const activated = tl.where(x > 0, x, x * slope);
  const clamped = tl.minimum(tl.maximum(activated, -limit), limit);
  tl.store(out_ptr + offsets, clamped, mask);
});

export const leakyRelu = defineRun({
  kernel: leaky_relu_kernel,
  sizes: [50_000, 777, 131_073, 500_001],
  constexprs: { BLOCK: 256 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: randn(n), out_ptr: empty(n), slope: 0.01, limit: 1.5, n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr, slope, limit }) => ({
    out_ptr: x_ptr.map((x) => Math.min(Math.max(x > 0 ? x : Math.fround(x * Math.fround(slope)), -limit), limit)),
  }),
  bytes: (n) => 8 * n,
});
