// Does not compile (a do…while loop): running it reports compile errors and changes nothing on disk.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const loop_kernel = kernel(function loop_kernel(x_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  do {
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, offsets < n), offsets < n);
  } while (n > 0);
});

export const loopRun = defineRun({
  kernel: loop_kernel,
  sizes: [1000],
  constexprs: { BLOCK: 128 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), n }),
  outputs: ["x_ptr"],
  reference: ({ x_ptr }) => ({ x_ptr }),
});
