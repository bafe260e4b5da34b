// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// A histogram (the exercise issue 11 names; LeetGPU-style), written as a Triton learner would:
// tl.atomic_add(hist_ptr + bins, 1, mask=mask). Construct: tl.atomicAdd.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const histogram_kernel = kernel(function histogram_kernel(x_ptr: Ptr<i32>, hist_ptr: Ptr<i32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offs < n;
  const bins = tl.load(x_ptr + offs, mask);
  tl.atomicAdd(hist_ptr + bins, 1, mask);
});

export const histogram = defineRun({
  kernel: histogram_kernel, sizes: [1000], constexprs: { BLOCK: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: Int32Array.from({ length: n }, () => Math.floor(Math.random() * 16)), hist_ptr: new Int32Array(16), n }), outputs: ["hist_ptr"],
  reference: ({ x_ptr }) => { const h = new Int32Array(16); for (const v of x_ptr) h[v]++; return { hist_ptr: h }; },
});
