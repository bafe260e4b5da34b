// Layer-norm backward (examples/layer-norm-backward.kernel.ts, Triton tutorial 05) in the suite:
// M rows of N, the whole backward timed — dx with partial dW/db rows, then their sum — as the
// tutorial's benchmark times `y.backward(dy)`.
//
// GB/s counts what any backward must move, the same bytes on both sides (torch_bench.py):
// x and dy read, dx written (3·M·N), w read, dW and db written (3·N), mean and rstd read (2·M),
// float32. The partial dW/db rows are not counted: their number is each implementation's choice
// (Triton's tutorial: GROUP_SIZE_M rows under locks; Kernel Lab's: one per program, M / ROWS_PER_PROGRAM),
// so counting them would reward moving more. The tutorial itself counts 3·M·N.

import { empty, nextPow2, randn, sampleIndices, type Args, type Check } from "./case";
import type { SequenceCase } from "./sequence";

const EPS = 1e-5;
/** DX is checked on this many rows at most (all of dW and db always). */
const CHECKED_ROWS = 256;

const cdiv = (a: number, b: number) => Math.ceil(a / b);

/** x, dy, w, and the forward's mean and rstd (float64, rounded to f32), with poisoned outputs. */
function backwardArgs(m: number, n: number, partialRows: number): Args {
  const X = randn(m * n);
  const Mean = new Float32Array(m);
  const Rstd = new Float32Array(m);
  for (let r = 0; r < m; r++) {
    let sum = 0;
    for (let c = 0; c < n; c++) sum += X[r * n + c];
    const mean = sum / n;
    let v = 0;
    for (let c = 0; c < n; c++) v += (X[r * n + c] - mean) ** 2;
    Mean[r] = mean;
    Rstd[r] = 1 / Math.sqrt(v / n + EPS);
  }
  return {
    X, DY: randn(m * n), W: randn(n), Mean, Rstd,
    DX: empty(m * n), PartialDW: empty(partialRows * n), PartialDB: empty(partialRows * n), DW: empty(n), DB: empty(n),
  };
}

/** dx on sampled rows, dW and db over all rows, in float64 from the same mean and rstd. */
function backwardChecks(a: Args, m: number, n: number): Check[] {
  const [X, DY, W, Mean, Rstd] = [a.X, a.DY, a.W, a.Mean, a.Rstd] as Float32Array[];
  const rows = Int32Array.from(new Set(sampleIndices(m, CHECKED_ROWS, 1)));
  const checked = new Map<number, number>(Array.from(rows, (r, s) => [r, s]));
  const dxIndices = new Int32Array(rows.length * n);
  const dx = new Float64Array(rows.length * n);
  const dw = new Float64Array(n);
  const db = new Float64Array(n);
  for (let r = 0; r < m; r++) {
    let c1 = 0;
    let c2 = 0;
    for (let c = 0; c < n; c++) {
      const xhat = (X[r * n + c] - Mean[r]) * Rstd[r];
      c1 += xhat * W[c] * DY[r * n + c];
      c2 += W[c] * DY[r * n + c];
      dw[c] += DY[r * n + c] * xhat;
      db[c] += DY[r * n + c];
    }
    const s = checked.get(r);
    if (s === undefined) continue;
    for (let c = 0; c < n; c++) {
      const xhat = (X[r * n + c] - Mean[r]) * Rstd[r];
      dxIndices[s * n + c] = r * n + c;
      dx[s * n + c] = (W[c] * DY[r * n + c] - (xhat * c1 + c2) / n) * Rstd[r];
    }
  }
  return [{ output: "DX", indices: dxIndices, expected: dx }, { output: "DW", expected: dw }, { output: "DB", expected: db }];
}

export function layerNormBackward(m: number, n: number): SequenceCase {
  const block = nextPow2(n);
  // The tutorial's launch: num_warps from its forward's heuristic; dW/db summed by 32 × 128 blocks.
  const tutorialWarps = Math.min(Math.max(block / 256, 1), 8);
  const sum = { BLOCK_SIZE_M: 32, BLOCK_SIZE_N: 128 };
  const dx = (rows: number, extra: Record<string, number> = {}) => ({ ROWS_PER_PROGRAM: rows, BLOCK_SIZE_N: block, ...extra });
  const variants: Record<string, number>[][] = [
    [dx(8), sum], [dx(4), sum], [dx(16), sum], [dx(8, { num_warps: tutorialWarps }), sum],
    // More, narrower column blocks for the sum: N / 128 programs leave most of the GPU idle.
    [dx(8), { BLOCK_SIZE_M: 32, BLOCK_SIZE_N: 32 }], [dx(16), { BLOCK_SIZE_M: 64, BLOCK_SIZE_N: 32 }],
  ];
  const partialRows = cdiv(m, Math.min(...variants.map((v) => v[0].ROWS_PER_PROGRAM)));
  return {
    name: `layernorm-bwd-${m}x${n}`,
    example: "layer-norm-backward",
    shape: `${m}×${n}`,
    launches: [
      {
        kernel: "layer_norm_bwd_dx_fused",
        grid: (c) => [cdiv(m, c.ROWS_PER_PROGRAM)],
        bind: () => ({ DX: "DX", DY: "DY", PartialDW: "PartialDW", PartialDB: "PartialDB", X: "X", W: "W", Mean: "Mean", Rstd: "Rstd", stride: n, N: n, M: m }),
      },
      {
        kernel: "layer_norm_bwd_dwdb",
        grid: (c) => [cdiv(n, c.BLOCK_SIZE_N)],
        // The partial rows of this variant: one per program of the first launch.
        bind: (v) => ({ DW: "PartialDW", DB: "PartialDB", FINAL_DW: "DW", FINAL_DB: "DB", M: cdiv(m, v[0].ROWS_PER_PROGRAM), N: n }),
      },
    ],
    variants,
    args: () => backwardArgs(m, n, partialRows),
    outputs: ["DX", "DW", "DB"],
    check: (a) => backwardChecks(a, m, n),
    bytes: 4 * (3 * m * n + 3 * n + 2 * m),
  };
}
