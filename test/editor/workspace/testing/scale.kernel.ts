// Testing view fixture: runs that pass. `scaleSweep` lists its sizes (one child item per size
// before any run); `scaleComputed` computes them, so its children appear after its first run.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const scale_kernel = kernel(function scale_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask) * 2, mask);
});

export const scaleSweep = defineRun({
  kernel: scale_kernel,
  sizes: [1000, 4097],
  constexprs: { BLOCK: 256 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), out_ptr: empty(n), n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr.map((v) => v * 2) }),
  bytes: (n) => 8 * n,
});

const COMPUTED_SIZES = [1, 2].map((k) => 300 * k + 1);

export const scaleComputed = defineRun({
  kernel: scale_kernel,
  sizes: COMPUTED_SIZES,
  constexprs: { BLOCK: 128 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), out_ptr: empty(n), n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr.map((v) => v * 2) }),
});
