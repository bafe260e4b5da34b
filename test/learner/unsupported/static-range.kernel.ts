// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// An unrolled loop, Triton's for i in tl.static_range(4). Construct: tl.staticRange.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const unroll_kernel = kernel(function unroll_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  let acc = tl.zeros([BLOCK], "f32");
  for (const i of tl.staticRange(4)) {
    acc += tl.load(x_ptr + i * n + offs, offs < n);
  }
  tl.store(z_ptr + offs, acc, offs < n);
});

export const unroll = defineRun({
  kernel: unroll_kernel, sizes: [1000], constexprs: { BLOCK: 256 }, grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(4 * n), z_ptr: empty(n), n }), outputs: ["z_ptr"],
  reference: ({ x_ptr }, n) => ({ z_ptr: Float64Array.from({ length: n }, (_, i) => x_ptr[i] + x_ptr[n + i] + x_ptr[2 * n + i] + x_ptr[3 * n + i]) }),
});
