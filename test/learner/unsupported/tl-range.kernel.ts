// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton tutorial 02 "Fused Softmax": for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages).
// Construct: tl.range (a software-pipelined range with num_stages).
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const softmax_kernel = kernel(function softmax_kernel(output_ptr: Ptr<f32>, input_ptr: Ptr<f32>, n_rows: i32, n_cols: i32, BLOCK_SIZE: constexpr, num_stages: constexpr) {
  const row_start = tl.programId(0);
  const row_step = tl.numPrograms(0);
  for (const row_idx of tl.range(row_start, n_rows, row_step, num_stages)) {
    const col_offsets = tl.arange(0, BLOCK_SIZE);
    const row = tl.load(input_ptr + row_idx * n_cols + col_offsets, col_offsets < n_cols, -Infinity);
    const num = tl.exp(row - tl.max(row, 0));
    tl.store(output_ptr + row_idx * n_cols + col_offsets, num / tl.sum(num, 0), col_offsets < n_cols);
  }
});

export const softmax = defineRun({
  kernel: softmax_kernel, sizes: [100], constexprs: { BLOCK_SIZE: 128, num_stages: 2 }, grid: () => [8],
  args: (n) => ({ output_ptr: empty(37 * n), input_ptr: randn(37 * n), n_rows: 37, n_cols: n }), outputs: ["output_ptr"],
  reference: ({ input_ptr }) => ({ output_ptr: input_ptr }),
});
