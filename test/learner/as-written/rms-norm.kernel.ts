// RMSNorm forward, as LLM kernel libraries write it in Triton (written here from the algorithm):
// one program per row; the row pointers advance by reassigning the parameters
// (`Y_ptr += row_idx * Y_row_stride`), the reciprocal RMS is stored for the backward pass, and
// the weight is loaded with a hint that its offsets are contiguous.
//   y = x / sqrt(mean(x²) + eps) * w
import { kernel, tl, defineRun, randn, rand, empty } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const _rms_norm_forward_kernel = kernel(function _rms_norm_forward_kernel(
  Y_ptr: Ptr<f32>, Y_row_stride: i32, X_ptr: Ptr<f32>, X_row_stride: i32, W_ptr: Ptr<f32>,
  RSTD_ptr: Ptr<f32>, n_cols: i32, eps: f32, BLOCK_SIZE: constexpr,
) {
  const row_idx = tl.programId(0);
  const col_offsets = tl.maxContiguous(tl.arange(0, BLOCK_SIZE), BLOCK_SIZE);
  const mask = col_offsets < n_cols;

  Y_ptr += row_idx * Y_row_stride;
  X_ptr += row_idx * X_row_stride;
  RSTD_ptr += row_idx;

  const X_row = tl.load(X_ptr + col_offsets, { mask, other: 0 });
  const W_row = tl.load(W_ptr + col_offsets, { mask, other: 0, evictionPolicy: "evict_last" });

  const mean_square = tl.sum(X_row * X_row, { axis: 0 }) / n_cols;
  const rstd = tl.rsqrt(mean_square + eps);
  tl.store(RSTD_ptr, rstd);

  tl.store(Y_ptr + col_offsets, X_row * rstd * W_row, { mask });
});

const ROWS = 13;

/** Size: the row length (not a power of two); rows padded to a stride of size + 3. */
export const rmsNorm = defineRun({
  kernel: _rms_norm_forward_kernel,
  sizes: [1000, 77],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: () => [ROWS],
  args: (n) => ({
    Y_ptr: empty(ROWS * (n + 3)), Y_row_stride: n + 3, X_ptr: randn(ROWS * (n + 3)), X_row_stride: n + 3,
    W_ptr: rand(n), RSTD_ptr: empty(ROWS), n_cols: n, eps: 1e-6,
  }),
  outputs: ["Y_ptr", "RSTD_ptr"],
  reference: ({ X_ptr, W_ptr, Y_ptr }, n) => {
    const y = Float64Array.from(Y_ptr); // the padding between rows stays as it was
    const rstd = new Float64Array(ROWS);
    for (let r = 0; r < ROWS; r++) {
      let ms = 0;
      for (let c = 0; c < n; c++) ms += X_ptr[r * (n + 3) + c] ** 2;
      rstd[r] = 1 / Math.sqrt(ms / n + 1e-6);
      for (let c = 0; c < n; c++) y[r * (n + 3) + c] = X_ptr[r * (n + 3) + c] * rstd[r] * W_ptr[c];
    }
    return { Y_ptr: y, RSTD_ptr: rstd };
  },
  tolerance: { atol: 1e-5, rtol: 1e-4 },
});
