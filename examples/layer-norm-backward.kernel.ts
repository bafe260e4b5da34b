// Layer norm backward (Triton tutorial 05), as a run of two launches. Triton's
// `_layer_norm_bwd_dx_fused` gives each row's dx and adds the row's share of dW/db into one of
// GROUP_SIZE_M partial rows under a lock; without locks, here each program owns a group of
// ROWS_PER_PROGRAM rows, accumulates their dW/db in registers and stores one partial row of its
// own. `_layer_norm_bwd_dwdb` then sums the partial rows, a block of columns per program.
import { kernel, tl, defineRun, randn, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const layer_norm_bwd_dx_fused = kernel(function layer_norm_bwd_dx_fused(
  DX: Ptr<f32>, DY: Ptr<f32>, PartialDW: Ptr<f32>, PartialDB: Ptr<f32>,
  X: Ptr<f32>, W: Ptr<f32>, Mean: Ptr<f32>, Rstd: Ptr<f32>,
  stride: i32, N: i32, M: i32, ROWS_PER_PROGRAM: constexpr, BLOCK_SIZE_N: constexpr,
) {
  const pid = tl.programId(0);
  const cols = tl.arange(0, BLOCK_SIZE_N);
  const mask = cols < N;
  const w = tl.load(W + cols, mask, 0.0);
  let dw = tl.zeros([BLOCK_SIZE_N], "f32");
  let db = tl.zeros([BLOCK_SIZE_N], "f32");
  const row_start = pid * ROWS_PER_PROGRAM;
  const row_end = tl.minimum(row_start + ROWS_PER_PROGRAM, M);
  for (let row = row_start; row < row_end; row += 1) {
    const x = tl.load(X + row * stride + cols, mask, 0.0);
    const dy = tl.load(DY + row * stride + cols, mask, 0.0);
    const mean = tl.load(Mean + row);
    const rstd = tl.load(Rstd + row);
    // dx = (w·dy − (x̂·c1 + c2)) · rstd, with c1 = mean(x̂·w·dy) and c2 = mean(w·dy) over the row
    const xhat = tl.where(mask, (x - mean) * rstd, 0.0);
    const wdy = tl.where(mask, w * dy, 0.0);
    const c1 = tl.sum(xhat * wdy, 0) / N;
    const c2 = tl.sum(wdy, 0) / N;
    const dx = (wdy - (xhat * c1 + c2)) * rstd;
    tl.store(DX + row * stride + cols, dx, mask);
    dw += dy * xhat;
    db += dy;
  }
  tl.store(PartialDW + pid * N + cols, dw, mask);
  tl.store(PartialDB + pid * N + cols, db, mask);
});

/** Sums the P partial rows of dW and db: each program a block of BLOCK_SIZE_N columns. */
export const layer_norm_bwd_dwdb = kernel(function layer_norm_bwd_dwdb(
  DW: Ptr<f32>, DB: Ptr<f32>, FINAL_DW: Ptr<f32>, FINAL_DB: Ptr<f32>, M: i32, N: i32,
  BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr,
) {
  const cols = tl.programId(0) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N);
  let dw = tl.zeros([BLOCK_SIZE_M, BLOCK_SIZE_N], "f32");
  let db = tl.zeros([BLOCK_SIZE_M, BLOCK_SIZE_N], "f32");
  for (let i = 0; i < M; i += BLOCK_SIZE_M) {
    const rows = i + tl.arange(0, BLOCK_SIZE_M);
    const mask = tl.expandDims(rows, 1) < M && tl.expandDims(cols, 0) < N;
    const offs = tl.expandDims(rows, 1) * N + tl.expandDims(cols, 0);
    dw += tl.load(DW + offs, mask, 0.0);
    db += tl.load(DB + offs, mask, 0.0);
  }
  tl.store(FINAL_DW + cols, tl.sum(dw, 0), cols < N);
  tl.store(FINAL_DB + cols, tl.sum(db, 0), cols < N);
});

const EPS = 1e-5;
/** Rows per program of the first launch: its `constexprs` say the same (the run's args size the partial sums by it). */
const ROWS_PER_PROGRAM = 8;

/** Inputs of the backward pass for M rows of N: x, dy, w, and the forward's mean and rstd (float64, rounded to f32). */
function backwardInputs(m: number, n: number) {
  const X = randn(m * n);
  const Mean = new Float32Array(m);
  const Rstd = new Float32Array(m);
  for (let r = 0; r < m; r++) {
    let mean = 0;
    for (let c = 0; c < n; c++) mean += X[r * n + c];
    mean /= n;
    let v = 0;
    for (let c = 0; c < n; c++) v += (X[r * n + c] - mean) ** 2;
    Mean[r] = mean;
    Rstd[r] = 1 / Math.sqrt(v / n + EPS);
  }
  const P = cdiv(m, ROWS_PER_PROGRAM);
  return {
    X, DY: randn(m * n), W: rand(n), Mean, Rstd,
    DX: empty(m * n), PartialDW: empty(P * n), PartialDB: empty(P * n), DW: empty(n), DB: empty(n),
    stride: n, N: n, M: m, P,
  };
}

/** The backward in float64 from the same mean and rstd. */
function backwardReference(a: { X: Float32Array; DY: Float32Array; W: Float32Array; Mean: Float32Array; Rstd: Float32Array; M: number; N: number }) {
  const { X, DY, W, Mean, Rstd, M: m, N: n } = a;
  const DX = new Float64Array(m * n);
  const DW = new Float64Array(n);
  const DB = new Float64Array(n);
  for (let r = 0; r < m; r++) {
    let c1 = 0;
    let c2 = 0;
    for (let c = 0; c < n; c++) {
      const xhat = (X[r * n + c] - Mean[r]) * Rstd[r];
      const wdy = W[c] * DY[r * n + c];
      c1 += xhat * wdy;
      c2 += wdy;
      DW[c] += DY[r * n + c] * xhat;
      DB[c] += DY[r * n + c];
    }
    c1 /= n;
    c2 /= n;
    for (let c = 0; c < n; c++) {
      const xhat = (X[r * n + c] - Mean[r]) * Rstd[r];
      DX[r * n + c] = (W[c] * DY[r * n + c] - (xhat * c1 + c2)) * Rstd[r];
    }
  }
  return { DX, DW, DB };
}

/** Size is the number of rows M; rows of N = 300 (a block of 512 columns). */
export const layerNormBackward = defineRun({
  sizes: [67, 1031, 4099],
  launches: [
    {
      kernel: layer_norm_bwd_dx_fused,
      constexprs: { ROWS_PER_PROGRAM: 8, BLOCK_SIZE_N: 512 }, // ROWS_PER_PROGRAM as in args
      grid: (m, c) => [cdiv(m, c.ROWS_PER_PROGRAM)],
    },
    {
      kernel: layer_norm_bwd_dwdb,
      constexprs: { BLOCK_SIZE_M: 16, BLOCK_SIZE_N: 64 },
      grid: (_m, c) => [cdiv(300, c.BLOCK_SIZE_N)],
      // Triton's parameter names: the partial rows are DW/DB, the sums FINAL_DW/FINAL_DB.
      args: { DW: "PartialDW", DB: "PartialDB", FINAL_DW: "DW", FINAL_DB: "DB", M: "P" },
    },
  ],
  args: (m: number) => backwardInputs(m, 300),
  outputs: ["DX", "DW", "DB"],
  reference: (a) => backwardReference(a),
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  bytes: (m) => 4 * (3 * m * 300 + 2 * m + 300 + 4 * cdiv(m, ROWS_PER_PROGRAM) * 300 + 2 * 300),
});

/** Size is the number of rows M; rows of N = 1000, wider than the dW/db reduction's block. */
export const layerNormBackwardWide = defineRun({
  sizes: [517],
  launches: [
    {
      kernel: layer_norm_bwd_dx_fused,
      constexprs: { ROWS_PER_PROGRAM: 8, BLOCK_SIZE_N: 1024 },
      grid: (m, c) => [cdiv(m, c.ROWS_PER_PROGRAM)],
    },
    {
      kernel: layer_norm_bwd_dwdb,
      constexprs: { BLOCK_SIZE_M: 32, BLOCK_SIZE_N: 32 },
      grid: (_m, c) => [cdiv(1000, c.BLOCK_SIZE_N)],
      args: (_m, _c, a) => ({ DW: a.PartialDW, DB: a.PartialDB, FINAL_DW: a.DW, FINAL_DB: a.DB, M: a.P, N: a.N }),
    },
  ],
  args: (m: number) => backwardInputs(m, 1000),
  outputs: ["DX", "DW", "DB"],
  reference: (a) => backwardReference(a),
  tolerance: { atol: 1e-4, rtol: 1e-4 },
});
