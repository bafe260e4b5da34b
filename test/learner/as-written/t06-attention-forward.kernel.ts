// Fused attention forward in the shape of Triton tutorial 06 (written here from the algorithm,
// as Triton code states it): an inner-loop device function takes the running accumulator, row
// sums and row maxima, reassigns them (and its K and V block pointers, which it advances) over a
// range of key blocks, and returns them as a tuple; the kernel calls it once per "stage" —
// STAGE 1 the keys wholly before the query block, STAGE 2 the diagonal block (masked causally),
// STAGE 3 every key — writing `[acc, l_i, m_i] = inner(acc, l_i, m_i, …)`. The softmax runs in
// base 2 (exp2, with log2 e folded into the scale), and M, the row log-sum-exp, is stored in base 2.
// Unlike the tutorial, N_CTX need not be a multiple of the blocks: keys past it are masked.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

const LOG2E = 1.44269504;

const attend_keys = kernel(function attend_keys(
  acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale,
  BLOCK_M: constexpr, BLOCK_N: constexpr, STAGE: constexpr, offs_m, offs_n, N_CTX,
) {
  // The key range of this stage.
  const [lo, hi] = STAGE === 1 ? [0, start_m * BLOCK_M] : STAGE === 2 ? [start_m * BLOCK_M, tl.minimum((start_m + 1) * BLOCK_M, N_CTX)] : [0, N_CTX];
  K_block_ptr = tl.advance(K_block_ptr, [0, lo]);
  V_block_ptr = tl.advance(V_block_ptr, [lo, 0]);
  for (const start_n of tl.range(lo, hi, BLOCK_N)) {
    const k = tl.load(K_block_ptr, { boundaryCheck: [1], paddingOption: "zero" });
    let qk = tl.dot(q, k) * qk_scale;
    const in_range = tl.expandDims(start_n + offs_n, 0) < N_CTX;
    // On the diagonal block, a query sees only the keys up to its own position.
    const keep = STAGE === 2 ? in_range && tl.expandDims(offs_m, 1) >= tl.expandDims(start_n + offs_n, 0) : in_range;
    qk = tl.where(keep, qk, -1.0e6);
    const m_ij = tl.maximum(m_i, tl.max(qk, 1));
    const p = tl.exp2(qk - tl.expandDims(m_ij, 1));
    const alpha = tl.exp2(m_i - m_ij);
    l_i = l_i * alpha + tl.sum(p, 1);
    acc = acc * tl.expandDims(alpha, 1);
    const v = tl.load(V_block_ptr, { boundaryCheck: [0], paddingOption: "zero" });
    acc = tl.dot(p, v, acc);
    m_i = m_ij;
    K_block_ptr = tl.advance(K_block_ptr, [0, BLOCK_N]);
    V_block_ptr = tl.advance(V_block_ptr, [BLOCK_N, 0]);
  }
  return [acc, l_i, m_i];
});

export const _attn_fwd = kernel(function _attn_fwd(
  Q: Ptr<f32>, K: Ptr<f32>, V: Ptr<f32>, sm_scale: f32, M: Ptr<f32>, Out: Ptr<f32>,
  stride_z: i32, stride_h: i32, stride_tok: i32, H: i32, N_CTX: i32,
  HEAD_DIM: constexpr, BLOCK_M: constexpr, BLOCK_N: constexpr, STAGE: constexpr,
) {
  tl.staticAssert(BLOCK_N <= HEAD_DIM, "the key block must not be wider than the head");
  const start_m = tl.programId(0);
  const off_hz = tl.programId(1);
  const qkv_offset = (off_hz / H) * stride_z + (off_hz % H) * stride_h;

  const Q_block_ptr = tl.makeBlockPtr(Q + qkv_offset, [N_CTX, HEAD_DIM], [stride_tok, 1], [start_m * BLOCK_M, 0], [BLOCK_M, HEAD_DIM], [1, 0]);
  // K read transposed: a HEAD_DIM × N_CTX view of the same memory.
  const K_block_ptr = tl.makeBlockPtr(K + qkv_offset, [HEAD_DIM, N_CTX], [1, stride_tok], [0, 0], [HEAD_DIM, BLOCK_N], [0, 1]);
  const V_block_ptr = tl.makeBlockPtr(V + qkv_offset, [N_CTX, HEAD_DIM], [stride_tok, 1], [0, 0], [BLOCK_N, HEAD_DIM], [1, 0]);
  const O_block_ptr = tl.makeBlockPtr(Out + qkv_offset, [N_CTX, HEAD_DIM], [stride_tok, 1], [start_m * BLOCK_M, 0], [BLOCK_M, HEAD_DIM], [1, 0]);

  const offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M);
  const offs_n = tl.arange(0, BLOCK_N);
  let m_i = tl.full([BLOCK_M], -Infinity, "f32");
  let l_i = tl.zeros([BLOCK_M], "f32");
  let acc = tl.zeros([BLOCK_M, HEAD_DIM], "f32");
  const qk_scale = sm_scale * LOG2E;
  const q = tl.load(Q_block_ptr, { boundaryCheck: [0], paddingOption: "zero" });

  // STAGE 1 (not causal): every key, as the helper's stage 3. STAGE 3 (causal): stage 1 (the keys
  // before the block) then stage 2 (the diagonal block).
  if (STAGE & 1) {
    [acc, l_i, m_i] = attend_keys(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale, BLOCK_M, BLOCK_N, 4 - STAGE, offs_m, offs_n, N_CTX);
  }
  if (STAGE & 2) {
    [acc, l_i, m_i] = attend_keys(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale, BLOCK_M, BLOCK_N, 2, offs_m, offs_n, N_CTX);
  }

  m_i += tl.log2(l_i);
  acc = acc / tl.expandDims(l_i, 1);
  tl.store(M + off_hz * N_CTX + offs_m, m_i, { mask: offs_m < N_CTX });
  tl.store(O_block_ptr, acc, { boundaryCheck: [0] });
});

const Z = 1, H = 2, D = 16;

const args = (n: number) => ({
  Q: randn(Z * H * n * D), K: randn(Z * H * n * D), V: randn(Z * H * n * D), sm_scale: 0.5,
  M: empty(Z * H * n), Out: empty(Z * H * n * D), stride_z: H * n * D, stride_h: n * D, stride_tok: D, H, N_CTX: n,
});

/** Softmax(Q Kᵀ · scale) V and the base-2 log-sum-exp of each row, in float64; causal: keys up to the query. */
function reference(causal: boolean) {
  return ({ Q, K, V, sm_scale }: ReturnType<typeof args>, n: number) => {
    const out = new Float64Array(Z * H * n * D), lse = new Float64Array(Z * H * n);
    for (let zh = 0; zh < Z * H; zh++)
      for (let i = 0; i < n; i++) {
        const base = zh * n * D, last = causal ? i : n - 1;
        const s = Array.from({ length: last + 1 }, (_, j) => { let dot = 0; for (let d = 0; d < D; d++) dot += Q[base + i * D + d] * K[base + j * D + d]; return dot * sm_scale; });
        const max = Math.max(...s);
        const w = s.map((x) => Math.exp(x - max));
        const sum = w.reduce((a, b) => a + b, 0);
        for (let d = 0; d < D; d++) out[base + i * D + d] = w.reduce((acc, wj, j) => acc + wj * V[base + j * D + d], 0) / sum;
        lse[zh * n + i] = (max + Math.log(sum)) * Math.LOG2E;
      }
    return { Out: out, M: lse };
  };
}

/** Size: N_CTX, not a multiple of the blocks. */
export const attentionForward = defineRun({
  kernel: _attn_fwd, sizes: [45, 16], constexprs: { HEAD_DIM: 16, BLOCK_M: 16, BLOCK_N: 16, STAGE: 1 },
  grid: (n, c) => [cdiv(n, c.BLOCK_M), Z * H], args, outputs: ["Out", "M"], reference: reference(false), tolerance: { atol: 1e-4, rtol: 1e-4 },
});

export const attentionForwardCausal = defineRun({
  kernel: _attn_fwd, sizes: [45, 16], constexprs: { HEAD_DIM: 16, BLOCK_M: 16, BLOCK_N: 16, STAGE: 3 },
  grid: (n, c) => [cdiv(n, c.BLOCK_M), Z * H], args, outputs: ["Out", "M"], reference: reference(true), tolerance: { atol: 1e-4, rtol: 1e-4 },
});
