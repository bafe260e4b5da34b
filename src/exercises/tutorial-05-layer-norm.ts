// Triton tutorial 05, "Layer Normalization" (triton-lang/triton, python/tutorials/05-layer-norm.py, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "tutorial-05",
  series: "Triton tutorials",
  number: 5,
  title: "Layer Normalization",
  file: "tutorial-05-layer-norm.kernel.ts",
  credit: "Triton's tutorial 05-layer-norm.py (triton-lang/triton, MIT)",
  task: "Layer norm forward, one row per program over 31 rows of N = 300: the row's mean and variance, y = (x - mean) / sqrt(variance + eps) · w + b, and the mean and 1 / sqrt(variance + eps) (rstd) stored per row for a backward pass. The row is walked BLOCK_SIZE = 128 columns at a time: a loop for the mean, one for the variance, one to normalise.",
  template: `import { kernel, tl, defineRun, randn, rand, empty, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const layer_norm_fwd = kernel(function layer_norm_fwd(
  X: Ptr<f32>, Y: Ptr<f32>, W: Ptr<f32>, B: Ptr<f32>, Mean: Ptr<f32>, Rstd: Ptr<f32>,
  stride: i32, N: i32, eps: f32, BLOCK_SIZE: constexpr,
) {
$BODY
});

const ROWS = 31;

/** Size is the row length N. */
export const layerNorm = defineRun({
  kernel: layer_norm_fwd,
  sizes: [300],
  constexprs: { BLOCK_SIZE: 128 },
  grid: () => [ROWS],
  args: (n) => ({
    X: randn(ROWS * n), Y: empty(ROWS * n), W: rand(n), B: randn(n), Mean: empty(ROWS), Rstd: empty(ROWS),
    stride: n, N: n, eps: 1e-5,
  }),
  outputs: ["Y", "Mean", "Rstd"],
  reference: exerciseReference("tutorial-05"),
  tolerance: { atol: 1e-5, rtol: 1e-4 },
  bytes: (n) => 4 * (2 * ROWS * n + 2 * n),
});
`,
  stub: `  // TODO: this program's row of X and Y; loop 1 sums the row for the mean; loop 2 sums (x - mean)²
  // for the variance (masked columns add 0); store mean and rstd; loop 3 writes (x - mean) * rstd * w + b.`,
  solution: `  const row = tl.programId(0);
  const x_row = X + row * stride;
  const y_row = Y + row * stride;
  let _mean = tl.zeros([BLOCK_SIZE], "f32");
  for (let off = 0; off < N; off += BLOCK_SIZE) {
    const cols = off + tl.arange(0, BLOCK_SIZE);
    _mean += tl.load(x_row + cols, cols < N, 0.0);
  }
  const mean = tl.sum(_mean, 0) / N;
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
  for (let off = 0; off < N; off += BLOCK_SIZE) {
    const cols = off + tl.arange(0, BLOCK_SIZE);
    const mask = cols < N;
    const w = tl.load(W + cols, mask);
    const b = tl.load(B + cols, mask);
    const x = tl.load(x_row + cols, mask, 0.0);
    tl.store(y_row + cols, (x - mean) * rstd * w + b, mask);
  }`,
  hints: [
    "Accumulate a whole block per trip (let _mean = tl.zeros([BLOCK_SIZE], \"f32\"); _mean += the tile) and reduce once after the loop: tl.sum(_mean, 0) / N.",
    "In the variance loop the masked-off columns loaded 0, but 0 - mean isn't 0: tl.where(cols < N, x - mean, 0.0).",
    "A scalar store needs no offsets: tl.store(Mean + row, mean).",
  ],
};

export function reference({ X, W, B, N, eps }: { X: Float32Array; W: Float32Array; B: Float32Array; N: number; eps: number }): Record<string, ArrayLike<number>> {
  const rows = X.length / N;
  const Y = new Float64Array(rows * N);
  const Mean = new Float64Array(rows);
  const Rstd = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let mean = 0;
    for (let c = 0; c < N; c++) mean += X[r * N + c];
    mean /= N;
    let v = 0;
    for (let c = 0; c < N; c++) v += (X[r * N + c] - mean) ** 2;
    const rstd = 1 / Math.sqrt(v / N + eps);
    Mean[r] = mean;
    Rstd[r] = rstd;
    for (let c = 0; c < N; c++) Y[r * N + c] = (X[r * N + c] - mean) * rstd * W[c] + B[c];
  }
  return { Y, Mean, Rstd };
}
