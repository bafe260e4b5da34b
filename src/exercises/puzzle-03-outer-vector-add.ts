// Triton-Puzzles 3, "Outer Vector Add" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-03",
  series: "Triton-Puzzles",
  number: 3,
  title: "Outer Vector Add",
  file: "puzzle-03-outer-vector-add.kernel.ts",
  credit: "Triton-Puzzles, puzzle 3 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "The outer sum of two vectors: z[j, i] = x[i] + y[j], x of length N0 = B0 = 32, y of length N1 = B1 = 32, z an N1 × N0 matrix stored row by row. One program holds all of it. Triton's x[None, :] + y[:, None] is tl.expandDims(x, 0) + tl.expandDims(y, 1).",
  template: `import { kernel, tl, defineRun, rand, empty, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_vec_kernel = kernel(function add_vec_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, B0: constexpr, B1: constexpr,
) {
$BODY
});

export const outerVectorAdd = defineRun({
  kernel: add_vec_kernel,
  sizes: [32],
  constexprs: { B0: 32, B1: 32 },
  grid: () => [1],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), z_ptr: empty(n * n), N0: n, N1: n }),
  outputs: ["z_ptr"],
  // z is N1 × N0, row-major: the access map and a mismatch's heatmap draw it so.
  shapes: (n) => ({ z_ptr: [n, n] }),
  reference: exerciseReference("puzzle-03"),
});
`,
  stub: `  // TODO: load x and y, add them as a [B1, B0] block (rows from y, columns from x), store it row by row.`,
  solution: `  const off_x = tl.arange(0, B0);
  const off_y = tl.arange(0, B1);
  const x = tl.load(x_ptr + off_x);
  const y = tl.load(y_ptr + off_y);
  const z = tl.expandDims(x, 0) + tl.expandDims(y, 1);
  tl.store(z_ptr + tl.expandDims(off_y, 1) * N0 + tl.expandDims(off_x, 0), z);`,
  hints: [
    "tl.expandDims(x, 0) is x as a [1, B0] row; tl.expandDims(y, 1) is y as a [B1, 1] column. Adding them broadcasts to [B1, B0].",
    "Element (j, i) of z is at z_ptr + j * N0 + i: build those offsets the same way, tl.expandDims(off_y, 1) * N0 + tl.expandDims(off_x, 0).",
  ],
};

export function reference({ x_ptr, y_ptr, N0, N1 }: { x_ptr: Float32Array; y_ptr: Float32Array; N0: number; N1: number }): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N0 * N1);
  for (let j = 0; j < N1; j++) for (let i = 0; i < N0; i++) z[j * N0 + i] = x_ptr[i] + y_ptr[j];
  return { z_ptr: z };
}
