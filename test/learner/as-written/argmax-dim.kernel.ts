// argmax along one dimension, as FlagGems writes it in Triton (FlagOpen/FlagGems,
// src/flag_gems/ops/argmax.py, `argmax_kernel`; written here from the algorithm): the input is
// viewed as [M, N, K] and reduced over N. A 2-D grid — blocks of BLOCK_M rows, and one program
// per k — walks N BLOCK_N at a time over a [BLOCK_M, BLOCK_N] block whose offsets are
// `m[:, None] * N * K + n[None, :] * K + k` (tl.expandDims) and whose mask is the `and` of two
// broadcast masks; masked-off lanes read the dtype's lowest value. Each block's maximum and its
// index come from one `tl.max(…, 1, return_indices=True, return_indices_tie_break_left=True)`,
// destructured; a running maximum and index (tl.full with keyword arguments) take a block's
// result only where it is strictly larger, so ties go to the first index, as torch.argmax's do.
// FlagGems stores int64 indices; WGSL has no 64-bit integers, so they are i32 here.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

/** torch.finfo(torch.float32).min, FlagGems' get_dtype_min for f32. */
const F32_MIN = -3.4028234663852886e38;

export const argmax_kernel = kernel(function argmax_kernel(
  inp: Ptr<f32>, out_index: Ptr<i32>, M: i32, N: i32, K: i32, BLOCK_M: constexpr, BLOCK_N: constexpr,
) {
  const pid_m = tl.programId(0);
  const pid_k = tl.programId(1);
  const m_offset = pid_m * BLOCK_M + tl.arange(0, BLOCK_M);

  let max_values = tl.full([BLOCK_M], { dtype: "f32", value: F32_MIN });
  let argmax_values = tl.full([BLOCK_M], { dtype: "i32", value: 0 });
  for (let start_n = 0; start_n < N; start_n += BLOCK_N) {
    const n_offset = start_n + tl.arange(0, BLOCK_N);
    const offset = tl.expandDims(m_offset, 1) * N * K + tl.expandDims(n_offset, 0) * K + pid_k;
    const mask = tl.expandDims(m_offset, 1) < M && tl.expandDims(n_offset, 0) < N;
    const inp_ptrs = inp + offset;
    const inp_vals = tl.load(inp_ptrs, { mask, other: F32_MIN });
    const [local_max, local_argmax] = tl.max(inp_vals, 1, { returnIndices: true, returnIndicesTieBreakLeft: true });
    const update = local_max > max_values;
    max_values = tl.where(update, local_max, max_values);
    argmax_values = tl.where(update, start_n + local_argmax, argmax_values);
  }

  const offset_index = m_offset * K + pid_k;
  const out_index_ptrs = out_index + offset_index;
  const mask1 = m_offset < M;
  tl.store(out_index_ptrs, argmax_values, { mask: mask1 });
});

const M = 11;
const K = 3;

/**
 * Size: N, the reduced extent. The values are rounded to quarters so that a row holds its maximum
 * more than once, in one block and across blocks: the first index must win.
 */
export const argmaxDim = defineRun({
  kernel: argmax_kernel,
  sizes: [100, 37],
  constexprs: { BLOCK_M: 4, BLOCK_N: 16 },
  grid: (_n, c) => [cdiv(M, c.BLOCK_M), K],
  args: (n) => ({ inp: randn(M * n * K).map((v) => Math.round(v * 4) / 4), out_index: empty(M * K, "i32"), M, N: n, K }),
  outputs: ["out_index"],
  reference: ({ inp }, n) => {
    const out = new Int32Array(M * K);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        let best = 0;
        for (let j = 1; j < n; j++) if (inp[(m * n + j) * K + k] > inp[(m * n + best) * K + k]) best = j;
        out[m * K + k] = best;
      }
    }
    return { out_index: out };
  },
});
