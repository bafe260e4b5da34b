// Two-dimensional blocks element-wise: each program owns a BLOCK_M × BLOCK_N tile.
// `bias_rows` shows a loaded row vector broadcast down the tile (bias[None, :] in Triton) and a
// column vector broadcast across it; `transpose` writes the tile back transposed with tl.trans.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const bias_relu_scale = kernel(function bias_relu_scale(
  x_ptr: Ptr<f32>, bias_ptr: Ptr<f32>, scale_ptr: Ptr<f32>, out_ptr: Ptr<f32>, M: i32, N: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr,
) {
  const offs_m = tl.programId(0) * BLOCK_M + tl.arange(0, BLOCK_M);
  const offs_n = tl.programId(1) * BLOCK_N + tl.arange(0, BLOCK_N);
  const rows = tl.expandDims(offs_m, 1);
  const cols = tl.expandDims(offs_n, 0);
  const mask = rows < M && cols < N;
  const x = tl.load(x_ptr + rows * N + cols, mask);
  const bias = tl.load(bias_ptr + offs_n, offs_n < N);
  const scale = tl.load(scale_ptr + offs_m, offs_m < M);
  const y = tl.maximum(x + tl.expandDims(bias, 0), 0.0) * tl.expandDims(scale, 1);
  tl.store(out_ptr + rows * N + cols, y, mask);
});

export const transpose_kernel = kernel(function transpose_kernel(
  x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, M: i32, N: i32, BLOCK: constexpr,
) {
  const offs_m = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const offs_n = tl.programId(1) * BLOCK + tl.arange(0, BLOCK);
  const tile = tl.load(x_ptr + tl.expandDims(offs_m, 1) * N + tl.expandDims(offs_n, 0), tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_n, 0) < N);
  // out is N × M: the tile's rows become columns.
  const out_ptrs = out_ptr + tl.expandDims(offs_n, 1) * M + tl.expandDims(offs_m, 0);
  tl.store(out_ptrs, tl.trans(tile), tl.expandDims(offs_n, 1) < N && tl.expandDims(offs_m, 0) < M);
});

/** Size s: an s × (2s + 3) matrix. */
export const biasReluScale = defineRun({
  kernel: bias_relu_scale,
  sizes: [45, 1, 16, 100],
  constexprs: { BLOCK_M: 16, BLOCK_N: 32 },
  grid: (s, c) => [cdiv(s, c.BLOCK_M), cdiv(2 * s + 3, c.BLOCK_N)],
  args: (s) => ({ x_ptr: randn(s * (2 * s + 3)), bias_ptr: randn(2 * s + 3), scale_ptr: randn(s), out_ptr: empty(s * (2 * s + 3)), M: s, N: 2 * s + 3 }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr, bias_ptr, scale_ptr, M, N }) => {
    const out = new Float32Array(M * N);
    for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) out[i * N + j] = Math.max(Math.fround(x_ptr[i * N + j] + bias_ptr[j]), 0) * scale_ptr[i];
    return { out_ptr: out };
  },
  bytes: (s) => 4 * (2 * s * (2 * s + 3) + 3 * s + 3),
});

/** Size s: an s × (s + 5) matrix transposed. */
export const transpose = defineRun({
  kernel: transpose_kernel,
  sizes: [37, 1, 64, 129],
  constexprs: { BLOCK: 16 },
  grid: (s, c) => [cdiv(s, c.BLOCK), cdiv(s + 5, c.BLOCK)],
  args: (s) => ({ x_ptr: randn(s * (s + 5)), out_ptr: empty(s * (s + 5)), M: s, N: s + 5 }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr, M, N }) => {
    const out = new Float32Array(M * N);
    for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) out[j * M + i] = x_ptr[i * N + j];
    return { out_ptr: out };
  },
  bytes: (s) => 8 * s * (s + 5),
});
