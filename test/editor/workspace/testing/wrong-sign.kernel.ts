// Testing view fixture, broken on purpose: the kernel subtracts where its reference adds, so the
// run fails with a mismatch at the `tl.store`.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_kernel = kernel(function add_kernel(x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  const y = tl.load(y_ptr + offsets, mask);
  const out = out_ptr + offsets;
  tl.store(out, x - y, mask);
});

export const wrongSign = defineRun({
  kernel: add_kernel,
  sizes: [1000],
  constexprs: { BLOCK: 128 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), out_ptr: empty(n), n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr, y_ptr }) => ({ out_ptr: x_ptr.map((v, i) => v + y_ptr[i]) }),
});
