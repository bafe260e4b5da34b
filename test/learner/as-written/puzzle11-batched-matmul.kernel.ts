// Triton-Puzzles, Puzzle 11 "Matrix Multiplication" with 3-D blocks, as its published solutions
// write it (written here from the puzzle's statement): each program computes a B2 × B0 × B1 block
// of the batched product z[b] = x[b] @ y[b] — offsets built as x[:, :, None]-style 3-D broadcasts
// (tl.expandDims to three axes), the accumulator tl.zeros([B2, B0, B1]), and MID walked B_MID at
// a time with a 3-D tl.dot (one matrix product per batch).
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const dot_kernel = kernel(function dot_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, N2: i32, MID: i32,
  B0: constexpr, B1: constexpr, B2: constexpr, B_MID: constexpr,
) {
  const pid_0 = tl.programId(0);
  const pid_1 = tl.programId(1);
  const pid_2 = tl.programId(2);
  // Batch, row and column offsets as [B2, 1, 1], [1, B0, 1] and [1, 1, B1] blocks.
  const off_b = tl.expandDims(pid_2 * B2 + tl.arange(0, B2), [1, 2]);
  const off_i = tl.expandDims(tl.expandDims(pid_0 * B0 + tl.arange(0, B0), 0), 2);
  const off_j = tl.expandDims(pid_1 * B1 + tl.arange(0, B1), [0, 1]);
  let z = tl.zeros([B2, B0, B1], "f32");
  for (let k = 0; k < MID; k += B_MID) {
    const off_k_col = tl.expandDims(k + tl.arange(0, B_MID), [0, 1]); // [1, 1, B_MID]
    const off_k_row = tl.expandDims(tl.expandDims(k + tl.arange(0, B_MID), 0), 2); // [1, B_MID, 1]
    const x = tl.load(x_ptr + off_b * N0 * MID + off_i * MID + off_k_col, off_b < N2 && off_i < N0 && off_k_col < MID, 0.0);
    const y = tl.load(y_ptr + off_b * MID * N1 + off_k_row * N1 + off_j, off_b < N2 && off_k_row < MID && off_j < N1, 0.0);
    z = tl.dot(x, y, z);
  }
  tl.store(z_ptr + off_b * N0 * N1 + off_i * N1 + off_j, z, off_b < N2 && off_i < N0 && off_j < N1);
});

/** Size s: N2 = 3 batches of an s × (s + 5) matrix times an (s + 5) × (s + 3) one. */
export const batchedMatmul3d = defineRun({
  kernel: dot_kernel,
  sizes: [32, 21],
  constexprs: { B0: 16, B1: 16, B2: 2, B_MID: 16 },
  grid: (s, c) => [cdiv(s, c.B0), cdiv(s + 3, c.B1), cdiv(3, c.B2)],
  args: (s) => {
    const N0 = s, N1 = s + 3, MID = s + 5, N2 = 3;
    return { x_ptr: randn(N2 * N0 * MID), y_ptr: randn(N2 * MID * N1), z_ptr: empty(N2 * N0 * N1), N0, N1, N2, MID };
  },
  outputs: ["z_ptr"],
  reference: ({ x_ptr, y_ptr, N0, N1, N2, MID }) => {
    const z = new Float64Array(N2 * N0 * N1);
    for (let b = 0; b < N2; b++)
      for (let i = 0; i < N0; i++)
        for (let j = 0; j < N1; j++) {
          let s = 0;
          for (let k = 0; k < MID; k++) s += x_ptr[b * N0 * MID + i * MID + k] * y_ptr[b * MID * N1 + k * N1 + j];
          z[b * N0 * N1 + i * N1 + j] = s;
        }
    return { z_ptr: z };
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
});
