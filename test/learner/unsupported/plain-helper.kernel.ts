// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// The same helper as a learner coming from TypeScript writes it: a plain module function.
// Construct: a call to a function that is not tl.* (docs/LANGUAGE.md §2: a compile error).
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

function leaky_relu(x: number): number {
  return tl.where(x >= 0, x, 0.01 * x);
}

export const act_kernel = kernel(function act_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const x = tl.load(x_ptr + offs, offs < n);
  tl.store(z_ptr + offs, leaky_relu(x), offs < n);
});

export const act = defineRun({
  kernel: act_kernel, sizes: [1000], constexprs: { BLOCK: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: randn(n), z_ptr: empty(n), n }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => ({ z_ptr: x_ptr.map((v) => (v >= 0 ? v : 0.01 * v)) }),
});
