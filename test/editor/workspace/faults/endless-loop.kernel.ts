// A kernel that never ends (its loop steps by 0 at run time): the editor tests stop it by the
// timeout, by killing its worker and by Cancel Run (test/editor/suite/trusted/faults.test.ts).
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const spin_kernel = kernel(function spin_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, step: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  let acc = tl.load(x_ptr + offsets, mask);
  for (let i = 0; i < n; i += step) {
    acc = acc + 1.0;
  }
  tl.store(out_ptr + offsets, acc, mask);
});

export const endless = defineRun({
  kernel: spin_kernel,
  sizes: [256],
  constexprs: { BLOCK: 64 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), out_ptr: empty(n), n, step: 0 }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }, n) => ({ out_ptr: x_ptr.map((v) => v + n) }),
});
