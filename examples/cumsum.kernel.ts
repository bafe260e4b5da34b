// Row-wise cumulative sum of an M × N matrix (Triton's tl.cumsum): each program scans BLOCK_M
// rows at once along axis 1 of a BLOCK_M × BLOCK_N block; N needn't be a power of two — the
// columns past N load 0 and aren't stored. `running_max` does the same with tl.associativeScan
// and a combine function, from the end of each row (reverse).
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const cumsum_rows = kernel(function cumsum_rows(
  x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, M: i32, N: i32, BLOCK_M: constexpr, BLOCK_N: constexpr,
) {
  const rows = tl.expandDims(tl.programId(0) * BLOCK_M + tl.arange(0, BLOCK_M), 1);
  const cols = tl.expandDims(tl.arange(0, BLOCK_N), 0);
  const mask = rows < M && cols < N;
  const x = tl.load(x_ptr + rows * N + cols, mask, 0.0);
  tl.store(out_ptr + rows * N + cols, tl.cumsum(x, 1), mask);
});

export const suffix_max = kernel(function suffix_max(
  x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, M: i32, N: i32, BLOCK_M: constexpr, BLOCK_N: constexpr,
) {
  const rows = tl.expandDims(tl.programId(0) * BLOCK_M + tl.arange(0, BLOCK_M), 1);
  const cols = tl.expandDims(tl.arange(0, BLOCK_N), 0);
  const mask = rows < M && cols < N;
  const x = tl.load(x_ptr + rows * N + cols, mask, -Infinity);
  tl.store(out_ptr + rows * N + cols, tl.associativeScan(x, 1, (a, b) => tl.maximum(a, b), true), mask);
});

/** Size s: an s × 300 matrix. */
export const cumsumRows = defineRun({
  kernel: cumsum_rows,
  sizes: [1000, 1, 77, 4096],
  constexprs: { BLOCK_M: 4, BLOCK_N: 512 },
  grid: (s, c) => [cdiv(s, c.BLOCK_M)],
  args: (s) => ({ x_ptr: randn(s * 300), out_ptr: empty(s * 300), M: s, N: 300 }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr, M, N }) => {
    const out = new Float64Array(M * N);
    for (let i = 0; i < M; i++) {
      let sum = 0;
      for (let j = 0; j < N; j++) out[i * N + j] = sum += x_ptr[i * N + j];
    }
    return { out_ptr: out };
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  bytes: (s) => 8 * s * 300,
});

/** Size s: an s × 77 matrix; each element becomes the maximum of its row from there to the end. */
export const suffixMax = defineRun({
  kernel: suffix_max,
  sizes: [500, 1, 33],
  constexprs: { BLOCK_M: 8, BLOCK_N: 128 },
  grid: (s, c) => [cdiv(s, c.BLOCK_M)],
  args: (s) => ({ x_ptr: randn(s * 77), out_ptr: empty(s * 77), M: s, N: 77 }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr, M, N }) => {
    const out = new Float32Array(M * N);
    for (let i = 0; i < M; i++) {
      let best = -Infinity;
      for (let j = N - 1; j >= 0; j--) out[i * N + j] = best = Math.max(best, x_ptr[i * N + j]);
    }
    return { out_ptr: out };
  },
  bytes: (s) => 8 * s * 77,
});
