// RMSNorm forward as Liger-Kernel (`_rms_norm_forward_kernel`) and unsloth (`_rms_layernorm_forward`)
// write it in Triton, written here from the algorithm: the row offset in 64 bits
// (`row_idx = tl.program_id(0).to(tl.int64)`), the input's dtype read from the loaded row and kept
// (`X_row_dtype = X_row.dtype`), the mean square computed in f32 (`.to(tl.float32)`), the
// reciprocal RMS from `tl.math.rsqrt`, and a casting mode chosen while compiling: Llama's casts the
// normalised row back to the input's dtype before the weight (`.to(X_row_dtype)`), Gemma's computes
// everything in f32 with the weight offset by 1 and casts the result. `let Y_row;` is first assigned
// in each branch of that constexpr if, as Python's names are.
//   y = x / sqrt(mean(x²) + eps) * (offset + w)
import { kernel, tl, defineRun, randn, rand, empty } from "kernel-lab";
import type { Ptr, f16, f32, i32, constexpr } from "kernel-lab";

const _CASTING_MODE_LLAMA = 0;
const _CASTING_MODE_GEMMA = 1;

export const _rms_norm_forward_kernel = kernel(function _rms_norm_forward_kernel(
  Y_ptr: Ptr<f16>, Y_row_stride: i32, X_ptr: Ptr<f16>, X_row_stride: i32, W_ptr: Ptr<f16>,
  RSTD_ptr: Ptr<f32>, RSTD_row_stride: i32, n_cols: i32, eps: f32, offset: f32,
  casting_mode: constexpr, BLOCK_SIZE: constexpr,
) {
  const row_idx = tl.programId(0).to(tl.int64);
  const col_offsets = tl.arange(0, BLOCK_SIZE);
  const mask = col_offsets < n_cols;

  Y_ptr += row_idx * Y_row_stride;
  X_ptr += row_idx * X_row_stride;
  RSTD_ptr += row_idx * RSTD_row_stride;

  const X_row = tl.load(X_ptr + col_offsets, { mask, other: 0 });
  const X_row_dtype = X_row.dtype;
  let W_row = tl.load(W_ptr + col_offsets, { mask, other: 0 });

  const X_row_f32 = X_row.to(tl.float32);
  const mean_square = tl.sum(X_row_f32 * X_row_f32, { axis: 0 }) / n_cols;
  const rstd = tl.math.rsqrt(mean_square + eps);
  tl.store(RSTD_ptr, rstd);

  let Y_row;
  if (casting_mode === _CASTING_MODE_LLAMA) {
    Y_row = (X_row_f32 * rstd).to(X_row_dtype) * (offset + W_row).to(X_row_dtype);
  } else {
    W_row = W_row.to(tl.float32);
    Y_row = X_row_f32 * rstd * (offset + W_row);
  }
  tl.store(Y_ptr + col_offsets, Y_row.to(Y_ptr.dtype.element_ty), { mask });
});

const ROWS = 13;

/** f16 as the GPU rounds it (round to nearest even), for the reference. */
function f16(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const e = Math.max(Math.floor(Math.log2(Math.abs(x))), -14);
  const ulp = 2 ** (e - 10);
  const q = x / ulp;
  const r = Math.round(q);
  return (Math.abs(q - Math.trunc(q)) === 0.5 ? 2 * Math.round(q / 2) : r) * ulp;
}

/** The rows are padded to a stride of size + 3 (the padding stays as it was). */
function args(n: number, offset: number) {
  return {
    Y_ptr: empty(ROWS * (n + 3)), Y_row_stride: n + 3, X_ptr: randn(ROWS * (n + 3)), X_row_stride: n + 3,
    W_ptr: rand(n), RSTD_ptr: empty(ROWS * 2), RSTD_row_stride: 2, n_cols: n, eps: 1e-6, offset,
  };
}

/** The inputs arrive rounded to f16; the reference rounds where the kernel stores or casts to f16. */
function reference(casting_mode: number, offset: number) {
  return (a: Record<string, unknown>, n: number) => {
    const [X_ptr, W_ptr, Y_ptr, RSTD_ptr] = ["X_ptr", "W_ptr", "Y_ptr", "RSTD_ptr"].map((k) => a[k] as ArrayLike<number>);
    const x = Array.from(X_ptr, f16);
    const w = Array.from(W_ptr, f16);
    const y = Float64Array.from(Y_ptr);
    const rstd = Float64Array.from(RSTD_ptr);
    for (let r = 0; r < ROWS; r++) {
      let ms = 0;
      for (let c = 0; c < n; c++) ms += x[r * (n + 3) + c] ** 2;
      rstd[r * 2] = 1 / Math.sqrt(ms / n + 1e-6);
      for (let c = 0; c < n; c++) {
        const v = x[r * (n + 3) + c] * rstd[r * 2];
        y[r * (n + 3) + c] = casting_mode === _CASTING_MODE_LLAMA ? f16(f16(v) * f16(offset + w[c])) : f16(v * (offset + w[c]));
      }
    }
    return { Y_ptr: y, RSTD_ptr: rstd };
  };
}

// The reference rounds to f16 where the kernel does; an output may still differ by an f16 ulp
// (2⁻¹⁰ of its magnitude or less) where the f32 rstd's last bits differ from the float64 one's and
// a value lies near a rounding boundary, and by two in Llama's mode, which rounds that value again
// after the weight (observed: 2⁻¹¹ near 0.5). The f32 rstd itself matches to ~1e-7.
const tolerance = { atol: 1e-5, rtol: 2e-3 };

/** Llama's casting: the normalised row back to f16 before the weight. */
export const rmsNormLlama = defineRun({
  kernel: _rms_norm_forward_kernel,
  sizes: [1000, 77],
  constexprs: { casting_mode: 0, BLOCK_SIZE: 1024 },
  grid: () => [ROWS],
  args: (n) => args(n, 0.0),
  outputs: ["Y_ptr", "RSTD_ptr"],
  reference: reference(_CASTING_MODE_LLAMA, 0.0),
  tolerance,
});

/** Gemma's casting: all in f32, the weight offset by 1. */
export const rmsNormGemma = defineRun({
  kernel: _rms_norm_forward_kernel,
  sizes: [1000, 77],
  constexprs: { casting_mode: 1, BLOCK_SIZE: 1024 },
  grid: () => [ROWS],
  args: (n) => args(n, 1.0),
  outputs: ["Y_ptr", "RSTD_ptr"],
  reference: reference(_CASTING_MODE_GEMMA, 1.0),
  tolerance,
});
