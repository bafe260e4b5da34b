// Triton-Puzzles 8, "Long Softmax" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-08",
  series: "Triton-Puzzles",
  number: 8,
  title: "Long Softmax",
  file: "puzzle-08-long-softmax.kernel.ts",
  credit: "Triton-Puzzles, puzzle 8 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "Row-wise softmax, z[i, j] = exp(x[i, j] - max_i) / Σ_k exp(x[i, k] - max_i), for 4 rows of T = 200, one row per program, B1 = 32 columns at a time. Subtract the row's maximum so exp can't overflow. Three loops work (max, sum, write); two if you are clever: keep a running maximum and rescale the running sum whenever it grows.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const softmax_kernel = kernel(function softmax_kernel(
  x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, T: i32, B0: constexpr, B1: constexpr,
) {
$BODY
});

/** Size is T, the row length; 4 rows. */
export const longSoftmax = defineRun({
  kernel: softmax_kernel,
  sizes: [200],
  constexprs: { B0: 1, B1: 32 },
  grid: (_t, c) => [cdiv(4, c.B0)],
  args: (t) => ({ x_ptr: randn(4 * t), z_ptr: empty(4 * t), N0: 4, N1: 32, T: t }),
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-08"),
  tolerance: { atol: 1e-6, rtol: 1e-4 },
});
`,
  stub: `  // TODO: a first loop over the row for its maximum m and its sum l of exp(x - m),
  // a second loop that writes exp(x - m) / l.`,
  solution: `  const pid_0 = tl.programId(0);
  const off_i = pid_0 * B0 + tl.arange(0, B0);
  const mask_i = off_i < N0;
  let m = tl.full([B0], -Infinity, "f32");
  let l = tl.zeros([B0], "f32");
  for (let j = 0; j < T; j += B1) {
    const off_j = j + tl.arange(0, B1);
    const mask = tl.expandDims(mask_i, 1) && tl.expandDims(off_j, 0) < T;
    const x = tl.load(x_ptr + tl.expandDims(off_i, 1) * T + tl.expandDims(off_j, 0), mask, -Infinity);
    const m_new = tl.maximum(m, tl.max(x, 1));
    l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - tl.expandDims(m_new, 1)), 1);
    m = m_new;
  }
  for (let j = 0; j < T; j += B1) {
    const off_j = j + tl.arange(0, B1);
    const mask = tl.expandDims(mask_i, 1) && tl.expandDims(off_j, 0) < T;
    const off = tl.expandDims(off_i, 1) * T + tl.expandDims(off_j, 0);
    const x = tl.load(x_ptr + off, mask, -Infinity);
    tl.store(z_ptr + off, tl.exp(x - tl.expandDims(m, 1)) / tl.expandDims(l, 1), mask);
  }`,
  hints: [
    "Load masked-off columns as -Infinity (tl.load's third argument): they never win the maximum, and exp(-Infinity) adds 0 to the sum.",
    "Keep two running values per row: m (start at tl.full([B0], -Infinity, \"f32\")) and l (start at zeros).",
    "When a tile raises the maximum from m to m_new, the sum so far was of exp(x - m): multiply it by exp(m - m_new) before adding the tile's Σ exp(x - m_new).",
    "The second loop reloads each tile and stores tl.exp(x - tl.expandDims(m, 1)) / tl.expandDims(l, 1).",
  ],
};

export function reference({ x_ptr, N0, T }: { x_ptr: Float32Array; N0: number; T: number }): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N0 * T);
  for (let i = 0; i < N0; i++) {
    let max = -Infinity;
    for (let j = 0; j < T; j++) max = Math.max(max, x_ptr[i * T + j]);
    let sum = 0;
    for (let j = 0; j < T; j++) sum += Math.exp(x_ptr[i * T + j] - max);
    for (let j = 0; j < T; j++) z[i * T + j] = Math.exp(x_ptr[i * T + j] - max) / sum;
  }
  return { z_ptr: z };
}
