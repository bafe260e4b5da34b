// The product along one dimension, as FlagGems writes it in Triton (FlagOpen/FlagGems,
// src/flag_gems/ops/prod.py, `prod_kernel` with its combine function `reduce_mul`; written here
// from the algorithm): the input is viewed as [M, N, K] and multiplied out over N. A 2-D grid —
// blocks of BLOCK_M rows, and one program per k — walks N BLOCK_N at a time, multiplying each
// [BLOCK_M, BLOCK_N] block into an accumulator that starts at 1 (tl.full with keyword arguments,
// `acc *= inp_vals`); masked-off lanes load 1.0, the product's identity. The accumulator's rows are
// then folded by `tl.reduce(acc, axis=1, combine_fn=reduce_mul)`, whose combine function is a
// separate @triton.jit function — here a device function made with kernel(…), passed by name.
// FlagGems widens the loaded values with `.to(tl.float32)` (tl.cast here; a no-op for f32 input).
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const reduce_mul = kernel(function reduce_mul(a, b) {
  return a * b;
});

export const prod_kernel = kernel(function prod_kernel(
  inp: Ptr<f32>, out: Ptr<f32>, M: i32, N: i32, K: i32, BLOCK_M: constexpr, BLOCK_N: constexpr,
) {
  // set offset
  const pid_m = tl.programId(0);
  const pid_k = tl.programId(1);
  const m_offset = pid_m * BLOCK_M + tl.arange(0, BLOCK_M);

  let acc = tl.full([BLOCK_M, BLOCK_N], { value: 1.0, dtype: "f32" });
  for (let start_n = 0; start_n < N; start_n += BLOCK_N) {
    const n_offset = start_n + tl.arange(0, BLOCK_N);
    const offset = tl.expandDims(m_offset, 1) * N * K + tl.expandDims(n_offset, 0) * K + pid_k;

    // set mask
    const mask = tl.expandDims(m_offset, 1) < M && tl.expandDims(n_offset, 0) < N;
    const inp_ptrs = inp + offset;
    const inp_vals = tl.cast(tl.load(inp_ptrs, { mask, other: 1.0 }), "f32");
    acc *= inp_vals;
  }
  const result_index = tl.reduce(acc, { axis: 1, combineFn: reduce_mul });

  const offset_index = m_offset * K + pid_k;
  const out_ptrs = out + offset_index;
  const mask1 = m_offset < M;
  tl.store(out_ptrs, result_index, { mask: mask1 });
});

const M = 11;
const K = 3;

/**
 * Size: N, the extent multiplied out. Each value is ±(0.5 … 1.5), so a product of a hundred stays
 * far from f32's overflow and underflow, and its sign is tested too.
 */
export const prodDim = defineRun({
  kernel: prod_kernel,
  sizes: [100, 37],
  constexprs: { BLOCK_M: 4, BLOCK_N: 16 },
  grid: (_n, c) => [cdiv(M, c.BLOCK_M), K],
  args: (n) => {
    const magnitude = rand(M * n * K);
    const sign = rand(M * n * K);
    return { inp: magnitude.map((u, i) => (sign[i] < 0.5 ? -1 : 1) * (0.5 + u)), out: empty(M * K), M, N: n, K };
  },
  outputs: ["out"],
  reference: ({ inp }, n) => {
    const out = new Float64Array(M * K);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        let p = 1;
        for (let j = 0; j < n; j++) p *= inp[(m * n + j) * K + k];
        out[m * K + k] = p;
      }
    }
    return { out };
  },
  // N − 1 f32 multiplications, each rounding by at most 2⁻²⁴ relative: for N ≤ 100 the product is
  // within 100 · 6e-8 = 6e-6 of the exact one; the atol only covers a product near 0.
  tolerance: { atol: 1e-12, rtol: 1e-5 },
});
