// Triton-Puzzles 7, "Long Sum" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-07",
  series: "Triton-Puzzles",
  number: 7,
  title: "Long Sum",
  file: "puzzle-07-long-sum.kernel.ts",
  credit: "Triton-Puzzles, puzzle 7 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "Sum each row: z[i] = Σ_j x[i, j] for N0 = 4 rows of length T = 200, one row per program (B0 = 1). A row is longer than a block (B1 = 32), so walk it with a for loop, B1 columns at a time, accumulating.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const sum_kernel = kernel(function sum_kernel(
  x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, T: i32, B0: constexpr, B1: constexpr,
) {
$BODY
});

/** Size is T, the row length; 4 rows. */
export const longSum = defineRun({
  kernel: sum_kernel,
  sizes: [200],
  constexprs: { B0: 1, B1: 32 },
  grid: (_t, c) => [cdiv(4, c.B0)],
  args: (t) => ({ x_ptr: randn(4 * t), z_ptr: empty(4), N0: 4, N1: 32, T: t }),
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-07"),
  tolerance: { atol: 1e-4, rtol: 1e-4 },
});
`,
  stub: `  // TODO: this program's rows, an accumulator of zeros, a loop over the columns B1 at a time
  // (load a masked [B0, B1] tile, add its row sums), then store the sums.`,
  solution: `  const pid_0 = tl.programId(0);
  const off_i = pid_0 * B0 + tl.arange(0, B0);
  const mask_i = off_i < N0;
  let acc = tl.zeros([B0], "f32");
  for (let j = 0; j < T; j += B1) {
    const off_j = j + tl.arange(0, B1);
    const mask = tl.expandDims(mask_i, 1) && tl.expandDims(off_j, 0) < T;
    const x = tl.load(x_ptr + tl.expandDims(off_i, 1) * T + tl.expandDims(off_j, 0), mask, 0.0);
    acc += tl.sum(x, 1);
  }
  tl.store(z_ptr + off_i, acc, mask_i);`,
  hints: [
    "let acc = tl.zeros([B0], \"f32\") before the loop; a let may be reassigned in the loop (acc += …).",
    "for (let j = 0; j < T; j += B1) walks the row; the columns of a trip are j + tl.arange(0, B1), masked with < T.",
    "tl.sum(x, 1) sums a [B0, B1] tile along its columns, giving one value per row.",
  ],
};

export function reference({ x_ptr, N0, T }: { x_ptr: Float32Array; N0: number; T: number }): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N0);
  for (let i = 0; i < N0; i++) for (let j = 0; j < T; j++) z[i] += x_ptr[i * T + j];
  return { z_ptr: z };
}
