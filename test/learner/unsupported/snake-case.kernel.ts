// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton's spelling typed out of habit: tl.program_id(axis=0). Construct: tl.program_id (Kernel Lab: tl.programId).
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_kernel = kernel(function add_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK);
  tl.store(z_ptr + offs, tl.load(x_ptr + offs, offs < n) + 10.0, offs < n);
});

export const add = defineRun({
  kernel: add_kernel, sizes: [1000], constexprs: { BLOCK: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), z_ptr: empty(n), n }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => ({ z_ptr: x_ptr.map((v) => v + 10) }),
});
