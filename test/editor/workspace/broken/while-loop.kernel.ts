// Broken on purpose (editor tests): kernels have for and while loops, not do…while loops.
import { kernel, tl, defineRun, zeros } from "kernel-lab";
import type { Ptr, f32, i32 } from "kernel-lab";

export const loop_kernel = kernel(function loop_kernel(out_ptr: Ptr<f32>, n: i32) {
  let i = 0;
  do {
    i += 1;
  } while (i < n);
  tl.store(out_ptr + tl.arange(0, 16), tl.zeros([16], "f32"));
});

export const loopRun = defineRun({
  kernel: loop_kernel,
  sizes: [16],
  grid: () => [1],
  args: (n) => ({ out_ptr: zeros(n), n }),
  outputs: ["out_ptr"],
  reference: () => ({ out_ptr: new Float32Array(16) }),
});
