// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// A scalar conditional expression (Python's `a if c else b`, e.g. tutorial 06's
// lo, hi = (0, start_m * BLOCK_M) if STAGE == 1 else ...). Construct: the ternary operator.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const tail_kernel = kernel(function tail_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, n: i32, BLOCK: constexpr, CAUSAL: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const hi = CAUSAL === 1 ? tl.minimum(n, BLOCK) : n;
  tl.store(z_ptr + offs, tl.load(x_ptr + offs, offs < hi), offs < hi);
});

export const tail = defineRun({
  kernel: tail_kernel, sizes: [1000], constexprs: { BLOCK: 256, CAUSAL: 0 }, grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), z_ptr: empty(n), n }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => ({ z_ptr: x_ptr }),
});
