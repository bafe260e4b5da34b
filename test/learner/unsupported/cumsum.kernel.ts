// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// A cumulative sum of one block (the exercise issue 11 names): tl.cumsum(x, axis=0). Construct: tl.cumsum.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const cumsum_kernel = kernel(function cumsum_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offs = tl.arange(0, BLOCK);
  const x = tl.load(x_ptr + offs, offs < n);
  tl.store(z_ptr + offs, tl.cumsum(x, 0), offs < n);
});

export const cumsum = defineRun({
  kernel: cumsum_kernel, sizes: [100], constexprs: { BLOCK: 128 }, grid: () => [1],
  args: (n) => ({ x_ptr: rand(n), z_ptr: empty(n), n }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => { let s = 0; return { z_ptr: Float64Array.from(x_ptr, (v) => (s += v)) }; },
});
