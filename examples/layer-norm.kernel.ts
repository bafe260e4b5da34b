// Layer norm forward (Triton tutorial 05): one row per program; the row is walked in blocks
// to accumulate the mean and the variance, then normalised, scaled by the weight and shifted by
// the bias. Mean and rstd are stored too (the backward pass would need them).
import { kernel, tl, defineRun, randn, rand, empty } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const layer_norm_fwd = kernel(function layer_norm_fwd(
  X: Ptr<f32>, Y: Ptr<f32>, W: Ptr<f32>, B: Ptr<f32>, Mean: Ptr<f32>, Rstd: Ptr<f32>,
  stride: i32, N: i32, eps: f32, BLOCK_SIZE: constexpr,
) {
  const row = tl.programId(0);
  const x_row = X + row * stride;
  const y_row = Y + row * stride;
  // Mean
  let _mean = tl.zeros([BLOCK_SIZE], "f32");
  for (let off = 0; off < N; off += BLOCK_SIZE) {
    const cols = off + tl.arange(0, BLOCK_SIZE);
    _mean += tl.load(x_row + cols, cols < N, 0.0);
  }
  const mean = tl.sum(_mean, 0) / N;
  // Variance
  let _var = tl.zeros([BLOCK_SIZE], "f32");
  for (let off = 0; off < N; off += BLOCK_SIZE) {
    const cols = off + tl.arange(0, BLOCK_SIZE);
    const x = tl.load(x_row + cols, cols < N, 0.0);
    const d = tl.where(cols < N, x - mean, 0.0);
    _var += d * d;
  }
  const variance = tl.sum(_var, 0) / N;
  const rstd = 1.0 / tl.sqrt(variance + eps);
  tl.store(Mean + row, mean);
  tl.store(Rstd + row, rstd);
  // Normalise and apply the linear transformation
  for (let off = 0; off < N; off += BLOCK_SIZE) {
    const cols = off + tl.arange(0, BLOCK_SIZE);
    const mask = cols < N;
    const w = tl.load(W + cols, mask);
    const b = tl.load(B + cols, mask);
    const x = tl.load(x_row + cols, mask, 0.0);
    const x_hat = (x - mean) * rstd;
    tl.store(y_row + cols, x_hat * w + b, mask);
  }
});

const ROWS = 301;
const EPS = 1e-5;

/** Size is the row length N; 301 rows. */
export const layerNorm = defineRun({
  kernel: layer_norm_fwd,
  sizes: [1151, 1, 100, 1024, 4000],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: () => [ROWS],
  args: (n) => ({
    X: randn(ROWS * n), Y: empty(ROWS * n), W: rand(n), B: randn(n), Mean: empty(ROWS), Rstd: empty(ROWS),
    stride: n, N: n, eps: EPS,
  }),
  outputs: ["Y", "Mean", "Rstd"],
  reference: ({ X, W, B }, n) => {
    const Y = new Float32Array(ROWS * n);
    const Mean = new Float32Array(ROWS);
    const Rstd = new Float32Array(ROWS);
    for (let r = 0; r < ROWS; r++) {
      let mean = 0;
      for (let c = 0; c < n; c++) mean += X[r * n + c];
      mean /= n;
      let v = 0;
      for (let c = 0; c < n; c++) v += (X[r * n + c] - mean) ** 2;
      const rstd = 1 / Math.sqrt(v / n + EPS);
      Mean[r] = mean;
      Rstd[r] = rstd;
      for (let c = 0; c < n; c++) Y[r * n + c] = (X[r * n + c] - mean) * rstd * W[c] + B[c];
    }
    return { Y, Mean, Rstd };
  },
  tolerance: { atol: 1e-5, rtol: 1e-4 },
  bytes: (n) => 4 * (2 * ROWS * n + 2 * n),
});
