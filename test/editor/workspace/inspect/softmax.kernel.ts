// Fused softmax (Triton tutorial 02): one row per program, the whole row in one block, so the
// row is read once and written once. The column count need not be a power of two: the block is
// the next power of two and the tail is masked (loaded as -Infinity, which exp turns into 0).
import { kernel, tl, defineRun, randn, empty } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const softmax_kernel = kernel(function softmax_kernel(
  output_ptr: Ptr<f32>, input_ptr: Ptr<f32>, input_row_stride: i32, output_row_stride: i32, n_cols: i32, BLOCK_SIZE: constexpr,
) {
  const row_idx = tl.programId(0);
  const row_start_ptr = input_ptr + row_idx * input_row_stride;
  const col_offsets = tl.arange(0, BLOCK_SIZE);
  const input_ptrs = row_start_ptr + col_offsets;
  const mask = col_offsets < n_cols;
  const row = tl.load(input_ptrs, mask, -Infinity);
  const row_minus_max = row - tl.max(row, 0);
  const numerator = tl.exp(row_minus_max);
  const denominator = tl.sum(numerator, 0);
  const softmax_output = numerator / denominator;
  const output_row_start_ptr = output_ptr + row_idx * output_row_stride;
  tl.store(output_row_start_ptr + col_offsets, softmax_output, mask);
});

const ROWS = 1823;

/** Size is the number of columns; 1823 rows as in the tutorial's check. */
export const softmax = defineRun({
  kernel: softmax_kernel,
  sizes: [781, 1, 33, 512, 1000, 1024],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: () => [ROWS],
  args: (n) => ({ output_ptr: empty(ROWS * n), input_ptr: randn(ROWS * n), input_row_stride: n, output_row_stride: n, n_cols: n }),
  outputs: ["output_ptr"],
  reference: ({ input_ptr }, n) => ({ output_ptr: rowSoftmax(input_ptr, ROWS, n) }),
  tolerance: { atol: 1e-6, rtol: 1e-5 },
  bytes: (n) => 2 * 4 * ROWS * n,
});

/** For the web tests: fewer rows and a narrower block (SwiftShader takes about a second per launch of the run above). */
export const smallSoftmax = defineRun({
  kernel: softmax_kernel,
  sizes: [200],
  constexprs: { BLOCK_SIZE: 256 },
  grid: () => [SMALL_ROWS],
  args: (n) => ({ output_ptr: empty(SMALL_ROWS * n), input_ptr: randn(SMALL_ROWS * n), input_row_stride: n, output_row_stride: n, n_cols: n }),
  outputs: ["output_ptr"],
  reference: ({ input_ptr }, n) => ({ output_ptr: rowSoftmax(input_ptr, SMALL_ROWS, n) }),
  tolerance: { atol: 1e-6, rtol: 1e-5 },
  bytes: (n) => 2 * 4 * SMALL_ROWS * n,
});

const SMALL_ROWS = 61;

function rowSoftmax(input: Float32Array, rows: number, n: number): Float32Array {
  const out = new Float32Array(rows * n);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < n; c++) max = Math.max(max, input[r * n + c]);
    let sum = 0;
    for (let c = 0; c < n; c++) sum += Math.exp(input[r * n + c] - max);
    for (let c = 0; c < n; c++) out[r * n + c] = Math.exp(input[r * n + c] - max) / sum;
  }
  return out;
}
