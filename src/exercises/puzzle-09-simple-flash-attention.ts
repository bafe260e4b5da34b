// Triton-Puzzles 9, "Simple FlashAttention" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-09",
  series: "Triton-Puzzles",
  number: 9,
  title: "Simple FlashAttention",
  file: "puzzle-09-simple-flash-attention.kernel.ts",
  credit: "Triton-Puzzles, puzzle 9 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "A scalar attention: z[i] = Σ_j softmax_j(q[i] · k[j]) · v[j], with q, k and v vectors of length N0 = T = 200. Each program takes B0 = 32 queries and walks the keys B0 at a time in one loop, with puzzle 8's running maximum and sum, so the T × T scores are never stored.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const flashatt_kernel = kernel(function flashatt_kernel(
  q_ptr: Ptr<f32>, k_ptr: Ptr<f32>, v_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, T: i32, B0: constexpr,
) {
$BODY
});

/** Size is N0 = T. */
export const simpleFlashAttention = defineRun({
  kernel: flashatt_kernel,
  sizes: [200],
  constexprs: { B0: 32 },
  grid: (n, c) => [cdiv(n, c.B0)],
  args: (n) => ({ q_ptr: randn(n), k_ptr: randn(n), v_ptr: randn(n), z_ptr: empty(n), N0: n, T: n }),
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-09"),
  tolerance: { atol: 1e-5, rtol: 1e-4 },
});
`,
  stub: `  // TODO: load this program's queries; keep a running maximum, sum and weighted sum per query;
  // for each block of keys: scores q·k (a [B0, B0] tile), rescale, accumulate p·v; store acc / sum.`,
  solution: `  const pid = tl.programId(0);
  const off_i = pid * B0 + tl.arange(0, B0);
  const mask_i = off_i < N0;
  const q = tl.load(q_ptr + off_i, mask_i);
  let m = tl.full([B0], -Infinity, "f32");
  let l = tl.zeros([B0], "f32");
  let acc = tl.zeros([B0], "f32");
  for (let j = 0; j < T; j += B0) {
    const off_j = j + tl.arange(0, B0);
    const mask_j = off_j < T;
    const k = tl.load(k_ptr + off_j, mask_j);
    const v = tl.load(v_ptr + off_j, mask_j);
    const qk = tl.where(tl.expandDims(mask_j, 0), tl.expandDims(q, 1) * tl.expandDims(k, 0), -Infinity);
    const m_new = tl.maximum(m, tl.max(qk, 1));
    const alpha = tl.exp(m - m_new);
    const p = tl.exp(qk - tl.expandDims(m_new, 1));
    l = l * alpha + tl.sum(p, 1);
    acc = acc * alpha + tl.sum(p * tl.expandDims(v, 0), 1);
    m = m_new;
  }
  tl.store(z_ptr + off_i, acc / l, mask_i);`,
  hints: [
    "The scores of B0 queries against B0 keys are tl.expandDims(q, 1) * tl.expandDims(k, 0): a [B0, B0] tile.",
    "Keys past T must not count: tl.where(tl.expandDims(mask_j, 0), scores, -Infinity).",
    "With alpha = tl.exp(m - m_new), both running sums rescale: l = l * alpha + Σ p and acc = acc * alpha + Σ p · v.",
  ],
};

export function reference({ q_ptr, k_ptr, v_ptr, N0, T }: { q_ptr: Float32Array; k_ptr: Float32Array; v_ptr: Float32Array; N0: number; T: number }): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N0);
  for (let i = 0; i < N0; i++) {
    let max = -Infinity;
    for (let j = 0; j < T; j++) max = Math.max(max, q_ptr[i] * k_ptr[j]);
    let sum = 0;
    let acc = 0;
    for (let j = 0; j < T; j++) {
      const e = Math.exp(q_ptr[i] * k_ptr[j] - max);
      sum += e;
      acc += e * v_ptr[j];
    }
    z[i] = acc / sum;
  }
  return { z_ptr: z };
}
