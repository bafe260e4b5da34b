// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton tutorial 03's compiler hints: offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_SIZE_M), BLOCK_SIZE_M).
// Construct: tl.multipleOf / tl.maxContiguous (hints with no effect on the result).
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const copy_kernel = kernel(function copy_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offs = tl.maxContiguous(tl.multipleOf(tl.programId(0) * BLOCK + tl.arange(0, BLOCK), BLOCK), BLOCK);
  tl.store(z_ptr + offs, tl.load(x_ptr + offs, offs < n), offs < n);
});

export const copy = defineRun({
  kernel: copy_kernel, sizes: [1000], constexprs: { BLOCK: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), z_ptr: empty(n), n }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => ({ z_ptr: x_ptr }),
});
