// argmax along one dimension with int64 indices, as FlagGems writes it in Triton (FlagOpen/FlagGems,
// src/flag_gems/ops/argmax.py, `argmax_kernel`; written here from the algorithm): the same kernel
// as argmax-dim.kernel.ts, with FlagGems' int64s kept. Its program ids are int64 (FlagGems'
// `tle.program_id` casts them), so the offsets `m[:, None] * N * K + n[None, :] * K + k` are
// int64; the running index is `tl.full([BLOCK_M], 0, dtype=tl.int64)`, updated with an i32 block
// index (promoted to int64); and the indices are stored through a `Ptr<i64>` — torch.argmax's
// int64 output. Kernel Lab computes int64 in 32 bits (docs/LANGUAGE.md §2.9): the argument is a
// BigInt64Array, the reference returns one, and --json reports the int64 values the kernel stored.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, i64, constexpr } from "kernel-lab";

/** torch.finfo(torch.float32).min, FlagGems' get_dtype_min for f32. */
const F32_MIN = -3.4028234663852886e38;

export const argmax_kernel = kernel(function argmax_kernel(
  inp: Ptr<f32>, out_index: Ptr<i64>, M: i32, N: i32, K: i32, BLOCK_M: constexpr, BLOCK_N: constexpr,
) {
  const pid_m = tl.programId(0).to(tl.int64);
  const pid_k = tl.programId(1).to(tl.int64);
  const m_offset = pid_m * BLOCK_M + tl.arange(0, BLOCK_M);

  let max_values = tl.full([BLOCK_M], { dtype: "f32", value: F32_MIN });
  let argmax_values = tl.full([BLOCK_M], { dtype: tl.int64, value: 0 });
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
export const argmaxDimInt64 = defineRun({
  kernel: argmax_kernel,
  sizes: [100, 37],
  constexprs: { BLOCK_M: 4, BLOCK_N: 16 },
  grid: (_n, c) => [cdiv(M, c.BLOCK_M), K],
  args: (n) => ({ inp: randn(M * n * K).map((v) => Math.round(v * 4) / 4), out_index: empty(M * K, "i64"), M, N: n, K }),
  outputs: ["out_index"],
  reference: ({ inp }, n) => {
    const out = new BigInt64Array(M * K);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        let best = 0;
        for (let j = 1; j < n; j++) if (inp[(m * n + j) * K + k] > inp[(m * n + best) * K + k]) best = j;
        out[m * K + k] = BigInt(best);
      }
    }
    return { out_index: out };
  },
});
