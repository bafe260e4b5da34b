// Triton-Puzzles 4, "Outer Vector Add Block" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";
import { reference as outerSum } from "./puzzle-03-outer-vector-add";

export const exercise: Exercise = {
  id: "puzzle-04",
  series: "Triton-Puzzles",
  number: 4,
  title: "Outer Vector Add Block",
  file: "puzzle-04-outer-vector-add-block.kernel.ts",
  credit: "Triton-Puzzles, puzzle 4 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "The outer sum z[j, i] = x[i] + y[j] again, now for x of length N0 = 100 and y of length N1 = 90, in B1 × B0 = 32 × 32 tiles: a 2-D grid, program (pid_0, pid_1) computing columns pid_0 * B0 … and rows pid_1 * B1 …, masked at both edges.",
  template: `import { kernel, tl, defineRun, rand, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_vec_block_kernel = kernel(function add_vec_block_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, B0: constexpr, B1: constexpr,
) {
$BODY
});

/** Size n: x of length n, y of length n - 10 (the puzzle's 100 and 90). */
export const outerVectorAddBlock = defineRun({
  kernel: add_vec_block_kernel,
  sizes: [100],
  constexprs: { B0: 32, B1: 32 },
  grid: (n, c) => [cdiv(n, c.B0), cdiv(n - 10, c.B1)],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n - 10), z_ptr: empty(n * (n - 10)), N0: n, N1: n - 10 }),
  outputs: ["z_ptr"],
  // z is N1 × N0, row-major: the access map and a mismatch's heatmap draw it so.
  shapes: (n) => ({ z_ptr: [n - 10, n] }),
  reference: exerciseReference("puzzle-04"),
});
`,
  stub: `  // TODO: this program's columns (axis 0) and rows (axis 1), masked loads of x and y, the outer sum, a masked 2-D store.`,
  solution: `  const pid_0 = tl.programId(0);
  const pid_1 = tl.programId(1);
  const off_x = pid_0 * B0 + tl.arange(0, B0);
  const off_y = pid_1 * B1 + tl.arange(0, B1);
  const x = tl.load(x_ptr + off_x, off_x < N0);
  const y = tl.load(y_ptr + off_y, off_y < N1);
  const z = tl.expandDims(x, 0) + tl.expandDims(y, 1);
  const off_z = tl.expandDims(off_y, 1) * N0 + tl.expandDims(off_x, 0);
  const mask_z = tl.expandDims(off_y, 1) < N1 && tl.expandDims(off_x, 0) < N0;
  tl.store(z_ptr + off_z, z, mask_z);`,
  hints: [
    "tl.programId(0) and tl.programId(1) are the program's place on the two grid axes.",
    "Mask each load with its own vector's bound (off_x < N0, off_y < N1).",
    "The store's mask is 2-D: tl.expandDims(off_y, 1) < N1 && tl.expandDims(off_x, 0) < N0 — && combines masks element-wise, broadcasting like +.",
  ],
};

export const reference = outerSum;
