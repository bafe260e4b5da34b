// The cumulative sum along one dimension, as FlagGems first wrote it in Triton (FlagOpen/FlagGems,
// src/flag_gems/ops/cumsum.py, `cumsum_kernel`, before its scan-then-fan rewrite; written here from
// the algorithm): the input is viewed as [M, N, K] and scanned along N, which one block holds
// whole (FlagGems' heuristic BLOCK_N = triton.next_power_of_2(N)). A 2-D grid — blocks of BLOCK_M
// rows, and one program per k — loads a 3-D [BLOCK_M, BLOCK_N, 1] block whose offsets are
// `m_offset[:, None, None] * N * K + n_offset[None, :, None] * K + pid_k` (tl.expandDims with a
// list of axes) and whose mask is the `and` of two broadcast 3-D masks; the loaded values are
// widened with `.to(tl.float32)` (tl.cast; a no-op for f32 input) and scanned by
// `tl.cumsum(inp_vals, axis=1)` along the middle axis of the 3-D block, then stored through the
// same offsets and mask.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const cumsum_kernel = kernel(function cumsum_kernel(
  inp: Ptr<f32>, out: Ptr<f32>, M: i32, N: i32, K: i32, BLOCK_M: constexpr, BLOCK_N: constexpr,
) {
  const pid_m = tl.programId(0);
  const pid_k = tl.programId(1);
  const m_offset = pid_m * BLOCK_M + tl.arange(0, BLOCK_M);
  const n_offset = tl.arange(0, BLOCK_N);
  const offset = tl.expandDims(m_offset, [1, 2]) * N * K + tl.expandDims(n_offset, [0, 2]) * K + pid_k;
  const mask = tl.expandDims(m_offset, [1, 2]) < M && tl.expandDims(n_offset, [0, 2]) < N;
  const inp_ptrs = inp + offset;
  const inp_vals = tl.cast(tl.load(inp_ptrs, { mask }), "f32");
  const result = tl.cumsum(inp_vals, { axis: 1 });
  const out_ptrs = out + offset;
  tl.store(out_ptrs, result, { mask });
});

const M = 13;
const K = 3;

/**
 * Size: N, the scanned extent. Both sizes round up to the same power of two, 64, FlagGems' BLOCK_N
 * for them (a run's constexprs are one set for all its sizes); M = 13 is not a multiple of BLOCK_M.
 */
export const cumsumDim = defineRun({
  kernel: cumsum_kernel,
  sizes: [50, 37],
  constexprs: { BLOCK_M: 8, BLOCK_N: 64 },
  grid: (_n, c) => [cdiv(M, c.BLOCK_M), K],
  args: (n) => ({ inp: randn(M * n * K), out: empty(M * n * K), M, N: n, K }),
  outputs: ["out"],
  reference: ({ inp }, n) => {
    const out = new Float64Array(M * n * K);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        let s = 0;
        for (let j = 0; j < n; j++) out[(m * n + j) * K + k] = s += inp[(m * n + j) * K + k];
      }
    }
    return { out };
  },
  // Each output is a prefix of at most 50 standard-normal values summed in f32 (in the scan's order):
  // ≤ 49 additions, each rounding by 2⁻²⁴ ≈ 6e-8 of a partial sum that stays below ~25 (over 3σ of
  // a 50-step walk), so ≤ 49 · 25 · 6e-8 ≈ 7e-5 in the worst case; observed differences are ~3e-6.
  tolerance: { atol: 1e-4, rtol: 0 },
});
