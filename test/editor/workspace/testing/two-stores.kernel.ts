// Testing view fixture, broken on purpose: two tl.store calls write the output, the first right
// (programs 0 and 1), the second wrong (programs 2 and up scale by 3, the reference by 2), so the
// mismatch message must sit at the second store, where the report says the element was written.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const two_stores_kernel = kernel(function two_stores_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const pid = tl.programId(0);
  const offsets = pid * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  tl.store(out_ptr + offsets, x * 2, mask && pid < 2);
  tl.store(out_ptr + offsets, x * 3, mask && pid >= 2);
});

export const secondStoreWrong = defineRun({
  kernel: two_stores_kernel,
  sizes: [1000],
  constexprs: { BLOCK: 128 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), out_ptr: empty(n), n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr.map((x) => x * 2) }),
});
