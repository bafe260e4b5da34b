// Triton tutorial 02, "Fused Softmax" (triton-lang/triton, python/tutorials/02-fused-softmax.py, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "tutorial-02",
  series: "Triton tutorials",
  number: 2,
  title: "Fused Softmax",
  file: "tutorial-02-fused-softmax.kernel.ts",
  credit: "Triton's tutorial 02-fused-softmax.py (triton-lang/triton, MIT)",
  task: "Row-wise softmax of a 64 × 781 matrix, one row per program, the whole row in one block: read it once, subtract its maximum, exponentiate, divide by the sum, write it once. A row of 781 columns fits a block of BLOCK_SIZE = 1024 (the next power of two): mask the tail.",
  template: `import { kernel, tl, defineRun, randn, empty, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const softmax_kernel = kernel(function softmax_kernel(
  output_ptr: Ptr<f32>, input_ptr: Ptr<f32>, input_row_stride: i32, output_row_stride: i32, n_cols: i32, BLOCK_SIZE: constexpr,
) {
$BODY
});

const ROWS = 64;

/** Size is the number of columns. */
export const softmax = defineRun({
  kernel: softmax_kernel,
  sizes: [781],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: () => [ROWS],
  args: (n) => ({ output_ptr: empty(ROWS * n), input_ptr: randn(ROWS * n), input_row_stride: n, output_row_stride: n, n_cols: n }),
  outputs: ["output_ptr"],
  reference: exerciseReference("tutorial-02"),
  tolerance: { atol: 1e-6, rtol: 1e-5 },
  bytes: (n) => 2 * 4 * ROWS * n,
});
`,
  stub: `  // TODO: this program's row (its start pointer), the column offsets and their mask, load the row
  // (masked-off columns as -Infinity), softmax it, store it.`,
  solution: `  const row_idx = tl.programId(0);
  const row_start_ptr = input_ptr + row_idx * input_row_stride;
  const col_offsets = tl.arange(0, BLOCK_SIZE);
  const mask = col_offsets < n_cols;
  const row = tl.load(row_start_ptr + col_offsets, mask, -Infinity);
  const row_minus_max = row - tl.max(row, 0);
  const numerator = tl.exp(row_minus_max);
  const denominator = tl.sum(numerator, 0);
  const softmax_output = numerator / denominator;
  const output_row_start_ptr = output_ptr + row_idx * output_row_stride;
  tl.store(output_row_start_ptr + col_offsets, softmax_output, mask);`,
  hints: [
    "Row r starts at input_ptr + r * input_row_stride; its columns are tl.arange(0, BLOCK_SIZE), masked with < n_cols.",
    "tl.load's third argument fills masked-off lanes: -Infinity never wins tl.max(row, 0), and tl.exp(-Infinity) is 0 in the sum.",
    "tl.max(row, 0) and tl.sum(numerator, 0) reduce the block to scalars, which broadcast back in row - max and numerator / sum.",
  ],
};

export function reference({ input_ptr, n_cols }: { input_ptr: Float32Array; n_cols: number }): Record<string, ArrayLike<number>> {
  const n = n_cols;
  const rows = input_ptr.length / n;
  const out = new Float64Array(rows * n);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < n; c++) max = Math.max(max, input_ptr[r * n + c]);
    let sum = 0;
    for (let c = 0; c < n; c++) sum += Math.exp(input_ptr[r * n + c] - max);
    for (let c = 0; c < n; c++) out[r * n + c] = Math.exp(input_ptr[r * n + c] - max) / sum;
  }
  return { output_ptr: out };
}
