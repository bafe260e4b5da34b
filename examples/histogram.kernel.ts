// A histogram and a float sum with atomics, as a learner writes them from Triton
// (`tl.atomic_add(hist_ptr + bins, 1, mask=mask)`): every program adds its block's counts into
// one shared array. Programs run in no fixed order, so the references only check what doesn't
// depend on it: the counts, and the sum within a tolerance (the order changes the rounding).
import { kernel, tl, defineRun, rand, zeros, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

const NUM_BINS = 37;

export const histogram_kernel = kernel(function histogram_kernel(
  x_ptr: Ptr<i32>, hist_ptr: Ptr<i32>, n: i32, num_bins: i32, BLOCK: constexpr,
) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  // rand(n, "i32") is in [-1024, 1024): fold it into [0, num_bins).
  const bins = ((x % num_bins) + num_bins) % num_bins;
  tl.atomicAdd(hist_ptr + bins, 1, mask);
});

export const histogram = defineRun({
  kernel: histogram_kernel,
  sizes: [1000, 100_003],
  constexprs: { BLOCK: 256 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  // The counts start at zero (an atomic adds to what is there); every bin is checked.
  args: (n) => ({ x_ptr: rand(n, "i32"), hist_ptr: zeros(NUM_BINS, "i32"), n, num_bins: NUM_BINS }),
  outputs: ["hist_ptr"],
  reference: ({ x_ptr }) => {
    const hist = new Int32Array(NUM_BINS);
    for (const x of x_ptr) hist[((x % NUM_BINS) + NUM_BINS) % NUM_BINS]++;
    return { hist_ptr: hist };
  },
  bytes: (n) => 4 * n,
});

export const sum_kernel = kernel(function sum_kernel(x_ptr: Ptr<f32>, total_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const x = tl.load(x_ptr + offsets, offsets < n);
  // One float atomic per program: WGSL has none, so this is a compare-and-swap loop on the bits.
  tl.atomicAdd(total_ptr, tl.sum(x));
});

export const floatSum = defineRun({
  kernel: sum_kernel,
  sizes: [1000, 50_001],
  constexprs: { BLOCK: 512 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: rand(n), total_ptr: zeros(1), n }),
  outputs: ["total_ptr"],
  reference: ({ x_ptr }) => ({ total_ptr: [x_ptr.reduce((a, b) => a + b, 0)] }),
  tolerance: { atol: 1e-3, rtol: 1e-5 },
  bytes: (n) => 4 * n,
});
