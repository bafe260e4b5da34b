// Triton tutorial 06, "Fused Attention" (triton-lang/triton, python/tutorials/06-fused-attention.py, MIT), forward, float32.
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "tutorial-06",
  series: "Triton tutorials",
  number: 6,
  title: "Fused Attention",
  file: "tutorial-06-fused-attention.kernel.ts",
  credit: "Triton's tutorial 06-fused-attention.py (triton-lang/triton, MIT)",
  task: "Attention forward, Out = softmax(Q·Kᵀ · sm_scale)·V, for 1 batch × 2 heads of N_CTX = 200 rows of HEAD_DIM = 64, without ever storing the N_CTX × N_CTX scores. Program (start_m, batch·head) owns BLOCK_M query rows and walks the keys BLOCK_N at a time with puzzle 9's online softmax — now on tiles: S = Q·Kᵀ with tl.dot, accumulated over the head dimension BLOCK_D columns at a time (BLOCK_D = HEAD_DIM here: one tl.dot), then P·V with a second tl.dot. IS_CAUSAL is 0 in this run; for the tutorial's causal variant, keys after a query's row score -Infinity and the key loop stops at the end of the query block.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const attn_fwd = kernel(function attn_fwd(
  Q: Ptr<f32>, K: Ptr<f32>, V: Ptr<f32>, Out: Ptr<f32>, sm_scale: f32,
  // Q, K, V and Out share one [Z, H, N_CTX, HEAD_DIM] layout, so one set of strides.
  stride_z: i32, stride_h: i32, stride_m: i32, stride_k: i32,
  H: i32, N_CTX: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, BLOCK_D: constexpr, HEAD_DIM: constexpr, IS_CAUSAL: constexpr,
) {
$BODY
});

const Z = 1, H = 2, D = 64;

/** Size is the sequence length N_CTX. */
export const attention = defineRun({
  kernel: attn_fwd,
  sizes: [200],
  constexprs: { BLOCK_M: 32, BLOCK_N: 16, BLOCK_D: 64, HEAD_DIM: 64, IS_CAUSAL: 0 },
  grid: (n, c) => [cdiv(n, c.BLOCK_M), Z * H],
  args: (n) => ({
    Q: randn(Z * H * n * D), K: randn(Z * H * n * D), V: randn(Z * H * n * D), Out: empty(Z * H * n * D),
    sm_scale: 1 / Math.sqrt(D),
    stride_z: H * n * D, stride_h: n * D, stride_m: D, stride_k: 1,
    H, N_CTX: n,
  }),
  outputs: ["Out"],
  reference: exerciseReference("tutorial-06"),
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  flops: (n) => 4 * Z * H * n * n * D,
});
`,
  stub: `  // TODO: this program's query rows of one (batch, head); pointers to the Q tile, and to the first
  // Kᵀ [BLOCK_D, BLOCK_N] and V [BLOCK_N, HEAD_DIM] tiles; a running maximum m_i, sum l_i and
  // accumulator acc; for each block of keys: S = Q·Kᵀ · sm_scale (keys past N_CTX at -Infinity),
  // m_ij, P = exp(S - m_ij), alpha = exp(m_i - m_ij), acc = P·V + acc · alpha; store acc / l_i.`,
  solution: `  const start_m = tl.programId(0);
  const off_hz = tl.programId(1);
  const off_z = off_hz / H;
  const off_h = off_hz % H;
  const qkv_offset = off_z * stride_z + off_h * stride_h;
  const offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M);
  const offs_n = tl.arange(0, BLOCK_N);
  const offs_c = tl.arange(0, BLOCK_D);
  const offs_d = tl.arange(0, HEAD_DIM);
  const row_mask = tl.expandDims(offs_m, 1) < N_CTX;
  const q_ptrs = Q + qkv_offset + tl.expandDims(offs_m, 1) * stride_m + tl.expandDims(offs_c, 0) * stride_k;
  let k_ptrs = K + qkv_offset + tl.expandDims(offs_c, 1) * stride_k + tl.expandDims(offs_n, 0) * stride_m;
  let v_ptrs = V + qkv_offset + tl.expandDims(offs_n, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  let m_i = tl.full([BLOCK_M], -Infinity, "f32");
  let l_i = tl.zeros([BLOCK_M], "f32");
  let acc = tl.zeros([BLOCK_M, HEAD_DIM], "f32");
  let hi = N_CTX;
  if (IS_CAUSAL) {
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX);
  }
  for (let start_n = 0; start_n < hi; start_n += BLOCK_N) {
    const cols = start_n + offs_n;
    const col_mask = tl.expandDims(cols, 0) < N_CTX;
    let qk = tl.zeros([BLOCK_M, BLOCK_N], "f32");
    for (let d0 = 0; d0 < HEAD_DIM; d0 += BLOCK_D) {
      const q = tl.load(q_ptrs + d0 * stride_k, row_mask, 0.0);
      const k = tl.load(k_ptrs + d0 * stride_k, col_mask, 0.0);
      qk = tl.dot(q, k, qk);
    }
    qk = tl.where(col_mask, qk * sm_scale, -Infinity);
    if (IS_CAUSAL) {
      qk = tl.where(tl.expandDims(offs_m, 1) >= tl.expandDims(cols, 0), qk, -Infinity);
    }
    const m_ij = tl.maximum(m_i, tl.max(qk, 1));
    const p = tl.exp(qk - tl.expandDims(m_ij, 1));
    const alpha = tl.exp(m_i - m_ij);
    l_i = l_i * alpha + tl.sum(p, 1);
    const v = tl.load(v_ptrs, tl.expandDims(cols, 1) < N_CTX, 0.0);
    acc = tl.dot(p, v, acc * tl.expandDims(alpha, 1));
    m_i = m_ij;
    k_ptrs += BLOCK_N * stride_m;
    v_ptrs += BLOCK_N * stride_m;
  }
  acc = acc / tl.expandDims(l_i, 1);
  const o_ptrs = Out + qkv_offset + tl.expandDims(offs_m, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  tl.store(o_ptrs, acc, row_mask);`,
  hints: [
    "Load Kᵀ directly, by pointer arithmetic: tl.expandDims(offs_c, 1) * stride_k + tl.expandDims(offs_n, 0) * stride_m is a [BLOCK_D, BLOCK_N] tile, and tl.dot(q, k) is then Q·Kᵀ.",
    "Scores of keys past N_CTX must vanish in the softmax: tl.where(col_mask, scores, -Infinity).",
    "With m_ij = tl.maximum(m_i, tl.max(qk, 1)) and alpha = tl.exp(m_i - m_ij): l_i = l_i * alpha + tl.sum(p, 1) and acc = tl.dot(p, v, acc * tl.expandDims(alpha, 1)).",
    "Divide once at the end: acc / tl.expandDims(l_i, 1), stored where the rows exist.",
  ],
};

export function reference({ Q, K, V, N_CTX, stride_h, stride_m, sm_scale }: { Q: Float32Array; K: Float32Array; V: Float32Array; N_CTX: number; stride_h: number; stride_m: number; sm_scale: number }): Record<string, ArrayLike<number>> {
  // Rows of HEAD_DIM = stride_m elements; (batch, head) pairs of stride_h elements each, one after another.
  const n = N_CTX;
  const D = stride_m;
  const pairs = Q.length / stride_h;
  const out = new Float64Array(Q.length);
  const scores = new Float64Array(n);
  for (let zh = 0; zh < pairs; zh++) {
    const base = zh * stride_h;
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += Q[base + i * D + d] * K[base + j * D + d];
        scores[j] = dot * sm_scale;
        max = Math.max(max, scores[j]);
      }
      let sum = 0;
      for (let j = 0; j < n; j++) sum += scores[j] = Math.exp(scores[j] - max);
      for (let d = 0; d < D; d++) {
        let v = 0;
        for (let j = 0; j < n; j++) v += (scores[j] / sum) * V[base + j * D + d];
        out[base + i * D + d] = v;
      }
    }
  }
  return { Out: out };
}
