// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Stopping a loop early once the rest is masked off. Construct: break.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const sum_kernel = kernel(function sum_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, T: i32, MAX_T: constexpr, B1: constexpr) {
  let acc = 0.0;
  for (let j = 0; j < MAX_T; j += B1) {
    if (j >= T) {
      break;
    }
    const off = j + tl.arange(0, B1);
    acc += tl.sum(tl.load(x_ptr + off, off < T), 0);
  }
  tl.store(z_ptr, acc);
});

export const sum = defineRun({
  kernel: sum_kernel, sizes: [200], constexprs: { MAX_T: 1024, B1: 32 }, grid: () => [1],
  args: (t) => ({ x_ptr: rand(t), z_ptr: empty(1), T: t }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => ({ z_ptr: [x_ptr.reduce((a, b) => a + b, 0)] }),
});
