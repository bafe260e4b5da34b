// Triton-Puzzles 11, "Matrix Multiplication" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-11",
  series: "Triton-Puzzles",
  number: 11,
  title: "Matrix Multiplication",
  file: "puzzle-11-matmul.kernel.ts",
  credit: "Triton-Puzzles, puzzle 11 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "A batched matrix product z[b] = x[b] @ y[b]: N2 = 3 batches of an N0 × MID matrix times an MID × N1 one (here 32 × 37 times 37 × 35). Program (pid_0, pid_1, pid_2) computes the B0 × B1 tile of rows pid_0, columns pid_1 of batch pid_2, walking MID B_MID at a time and accumulating with tl.dot.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const dot_kernel = kernel(function dot_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, N2: i32, MID: i32,
  B0: constexpr, B1: constexpr, B2: constexpr, B_MID: constexpr,
) {
$BODY
});

/** Size s: N0 = s rows, N1 = s + 3 columns, MID = s + 5, 3 batches. */
export const batchedMatmul = defineRun({
  kernel: dot_kernel,
  sizes: [32],
  constexprs: { B0: 16, B1: 16, B2: 1, B_MID: 16 },
  grid: (s, c) => [cdiv(s, c.B0), cdiv(s + 3, c.B1), cdiv(3, c.B2)],
  args: (s) => {
    const N0 = s, N1 = s + 3, MID = s + 5, N2 = 3;
    return { x_ptr: randn(N2 * N0 * MID), y_ptr: randn(N2 * MID * N1), z_ptr: empty(N2 * N0 * N1), N0, N1, N2, MID };
  },
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-11"),
  tolerance: { atol: 1e-4, rtol: 1e-4 },
});
`,
  stub: `  // TODO: the tile's rows (a column block) and columns (a row block), this batch's x and y,
  // an accumulator of zeros, a loop over MID in steps of B_MID (masked x and y tiles, tl.dot), a masked store.`,
  solution: `  const pid_0 = tl.programId(0);
  const pid_1 = tl.programId(1);
  const pid_2 = tl.programId(2);
  const off_i = tl.expandDims(pid_0 * B0 + tl.arange(0, B0), 1);
  const off_j = tl.expandDims(pid_1 * B1 + tl.arange(0, B1), 0);
  const x_batch = x_ptr + pid_2 * N0 * MID;
  const y_batch = y_ptr + pid_2 * MID * N1;
  let acc = tl.zeros([B0, B1], "f32");
  for (let k = 0; k < MID; k += B_MID) {
    const off_k = k + tl.arange(0, B_MID);
    const x = tl.load(x_batch + off_i * MID + tl.expandDims(off_k, 0), off_i < N0 && tl.expandDims(off_k, 0) < MID);
    const y = tl.load(y_batch + tl.expandDims(off_k, 1) * N1 + off_j, tl.expandDims(off_k, 1) < MID && off_j < N1);
    acc = tl.dot(x, y, acc);
  }
  tl.store(z_ptr + pid_2 * N0 * N1 + off_i * N1 + off_j, acc, off_i < N0 && off_j < N1);`,
  hints: [
    "A pointer plus an offset is a pointer: x_ptr + pid_2 * N0 * MID is the start of batch pid_2's x.",
    "The x tile is [B0, B_MID] (rows off_i, columns off_k), the y tile [B_MID, B1]; mask both where k runs past MID.",
    "acc = tl.dot(x, y, acc) multiplies the tiles and adds to acc; masked-off elements load as 0 and add nothing.",
  ],
};

export function reference({ x_ptr, y_ptr, N0, N1, N2, MID }: { x_ptr: Float32Array; y_ptr: Float32Array; N0: number; N1: number; N2: number; MID: number }): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N2 * N0 * N1);
  for (let b = 0; b < N2; b++)
    for (let i = 0; i < N0; i++)
      for (let j = 0; j < N1; j++) {
        let s = 0;
        for (let k = 0; k < MID; k++) s += x_ptr[b * N0 * MID + i * MID + k] * y_ptr[b * MID * N1 + k * N1 + j];
        z[b * N0 * N1 + i * N1 + j] = s;
      }
  return { z_ptr: z };
}
