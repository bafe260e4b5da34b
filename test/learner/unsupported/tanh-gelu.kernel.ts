// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// A GELU (tanh approximation), a common next exercise after the tutorials' leaky ReLU. Construct: tl.tanh.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const gelu_kernel = kernel(function gelu_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const x = tl.load(x_ptr + offs, offs < n);
  const y = 0.5 * x * (1.0 + tl.tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
  tl.store(z_ptr + offs, y, offs < n);
});

export const gelu = defineRun({
  kernel: gelu_kernel, sizes: [1000], constexprs: { BLOCK: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: randn(n), z_ptr: empty(n), n }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => ({ z_ptr: x_ptr.map((x) => 0.5 * x * (1 + Math.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))) }),
});
