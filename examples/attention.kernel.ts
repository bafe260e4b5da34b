// Fused attention, forward pass (Triton tutorial 06), in float32: Out = softmax(Q·Kᵀ·sm_scale)·V
// for each (batch, head), without ever writing the N × N score matrix. Each program owns one
// BLOCK_M block of query rows of one (batch, head) and walks the keys in BLOCK_N blocks with an
// online softmax: a running row maximum m_i and a running row sum l_i (loop-carried blocks)
// rescale the accumulator whenever the maximum grows, so one pass over K and V suffices.
// Q·Kᵀ is tl.dot on K loaded transposed (a [BLOCK_D, BLOCK_N] tile built by pointer arithmetic:
// offs_c[:, None] * stride_k + offs_n[None, :] * stride_m), accumulated over the head dimension
// BLOCK_D at a time; then P·V is a second tl.dot.
// IS_CAUSAL (constexpr 0/1) masks keys after the query (tl.where on the offsets) and stops the
// key loop at the end of the query block. The sequence length need not be a multiple of either
// block: keys past N_CTX score -Infinity (exp turns them into 0), rows past N_CTX are not stored.
// exp2 is not in the language yet, so the scale is applied as is and the softmax uses tl.exp.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const attn_fwd = kernel(function attn_fwd(
  Q: Ptr<f32>, K: Ptr<f32>, V: Ptr<f32>, Out: Ptr<f32>, sm_scale: f32,
  // Q, K, V and Out share one [Z, H, N_CTX, HEAD_DIM] layout, so one set of strides.
  stride_z: i32, stride_h: i32, stride_m: i32, stride_k: i32,
  H: i32, N_CTX: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, BLOCK_D: constexpr, HEAD_DIM: constexpr, IS_CAUSAL: constexpr,
) {
  const start_m = tl.programId(0);
  const off_hz = tl.programId(1);
  const off_z = off_hz / H;
  const off_h = off_hz % H;
  const qkv_offset = off_z * stride_z + off_h * stride_h;
  const offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M);
  const offs_n = tl.arange(0, BLOCK_N);
  const offs_c = tl.arange(0, BLOCK_D);
  const offs_d = tl.arange(0, HEAD_DIM);
  const row_mask = tl.expandDims(offs_m, 1) < N_CTX;
  // BLOCK_D columns of the query block, and the matching BLOCK_D rows of the Kᵀ tile
  // [BLOCK_D, BLOCK_N]; the V tile [BLOCK_N, HEAD_DIM]. K and V advance BLOCK_N rows a trip.
  const q_ptrs = Q + qkv_offset + tl.expandDims(offs_m, 1) * stride_m + tl.expandDims(offs_c, 0) * stride_k;
  let k_ptrs = K + qkv_offset + tl.expandDims(offs_c, 1) * stride_k + tl.expandDims(offs_n, 0) * stride_m;
  let v_ptrs = V + qkv_offset + tl.expandDims(offs_n, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  let m_i = tl.full([BLOCK_M], -Infinity, "f32");
  let l_i = tl.zeros([BLOCK_M], "f32");
  let acc = tl.zeros([BLOCK_M, HEAD_DIM], "f32");
  // Causal: no key after the last query row of this block contributes.
  let hi = N_CTX;
  if (IS_CAUSAL) {
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX);
  }
  for (let start_n = 0; start_n < hi; start_n += BLOCK_N) {
    const cols = start_n + offs_n;
    const col_mask = tl.expandDims(cols, 0) < N_CTX;
    // S = Q·Kᵀ, accumulated over the head dimension BLOCK_D at a time, as matmul walks K.
    // BLOCK_D = HEAD_DIM is the tutorial's single tl.dot; a smaller BLOCK_D keeps the tiles
    // tl.dot stages in workgroup memory small enough for HEAD_DIM 128 (see the runs below).
    // The loop also gives this tl.dot a WGSL scope of its own: two tl.dot in one scope currently
    // declare `let dot_r` twice ("redeclaration of 'dot_r'", a code generator bug).
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
    // Online softmax: the new row maximum, and alpha, the factor that rescales what was summed
    // under the old one. Key 0 is in every row's first block, so m_ij is finite from trip one on.
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
  tl.store(o_ptrs, acc, row_mask);
});

// ---- runs ------------------------------------------------------------------------------------

/** A problem: Z batches × H heads × N_CTX rows of HEAD_DIM. Runs take the sequence length as size. */
interface Shape { Z: number; H: number; D: number }

/** Plain softmax(Q·Kᵀ·scale)·V in float64, one (batch, head) and one row at a time. */
function attentionReference(q: Float32Array, k: Float32Array, v: Float32Array, s: Shape, n: number, causal: boolean): Float32Array {
  const { Z, H, D } = s;
  const out = new Float32Array(Z * H * n * D);
  const scale = 1 / Math.sqrt(D);
  const scores = new Float64Array(n);
  const row = new Float64Array(D);
  for (let zh = 0; zh < Z * H; zh++) {
    const base = zh * n * D;
    for (let i = 0; i < n; i++) {
      const last = causal ? i : n - 1;
      let max = -Infinity;
      for (let j = 0; j <= last; j++) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += q[base + i * D + d] * k[base + j * D + d];
        scores[j] = dot * scale;
        if (scores[j] > max) max = scores[j];
      }
      let sum = 0;
      for (let j = 0; j <= last; j++) sum += (scores[j] = Math.exp(scores[j] - max));
      row.fill(0);
      for (let j = 0; j <= last; j++) {
        const p = scores[j] / sum;
        for (let d = 0; d < D; d++) row[d] += p * v[base + j * D + d];
      }
      for (let d = 0; d < D; d++) out[base + i * D + d] = row[d];
    }
  }
  return out;
}

/** Everything of a run but its kernel and constexprs, which stay literal in each defineRun (`check` and `wgsl` read them there). */
function attentionRun(shape: Shape, causal: boolean) {
  const { Z, H, D } = shape;
  return {
    grid: (n: number, c: { BLOCK_M: number }) => [cdiv(n, c.BLOCK_M), Z * H],
    args: (n: number) => ({
      Q: randn(Z * H * n * D), K: randn(Z * H * n * D), V: randn(Z * H * n * D), Out: empty(Z * H * n * D),
      sm_scale: 1 / Math.sqrt(D),
      stride_z: H * n * D, stride_h: n * D, stride_m: D, stride_k: 1,
      H, N_CTX: n,
    }),
    outputs: ["Out" as const],
    reference: ({ Q, K, V }: { Q: Float32Array; K: Float32Array; V: Float32Array }, n: number) => ({ Out: attentionReference(Q, K, V, shape, n, causal) }),
    // float32 dot products over HEAD_DIM terms and sums over N_CTX keys of randn inputs; the
    // outputs are convex combinations of V's rows, so of order 1. Seen: at most 1.5e-6 off the
    // float64 reference (lavapipe and --cpu, sizes 33 to 1000).
    tolerance: { atol: 1e-4, rtol: 1e-4 },
    // Q·Kᵀ and P·V: 2 · 2 · N² · D per (batch, head); causal does half of it.
    flops: (n: number) => (4 * Z * H * n * n * D) / (causal ? 2 : 1),
  };
}

// Size is the sequence length N_CTX, for 1 batch × 2 heads: 200, 33, 1000 and 3000 are no
// multiples of a block. 3000 is for a real GPU (the H200); on lavapipe, a CPU, run the first.
//
// Blocks: every run fits WebGPU's default 16 KiB of workgroup memory (what --cpu compiles for,
// and the least an adapter offers), where tl.dot stages its operands and the reductions and
// broadcasts their blocks. With BLOCK_D = HEAD_DIM (the tutorial's single Q·Kᵀ tl.dot) HEAD_DIM 64
// needs 20 KiB at 32 × 32 and HEAD_DIM 128 17 KiB even at 16 × 16 (tl.dot needs extents ≥ 16):
// both run on adapters with 32 KiB (lavapipe), not on the defaults. `kernel-lab wgsl` names the
// bytes each block set needs (--constexpr BLOCK_M=… …). On lavapipe the shader compile, not the
// launch, is what costs: HEAD_DIM 64 at 32 × 16 × 64 compiles cold in ~14 s on a loaded 2-core
// machine, at 32 × 32 × 32 (as fast a launch) in ~55 s.
export const attention64 = defineRun({
  kernel: attn_fwd,
  ...attentionRun({ Z: 1, H: 2, D: 64 }, false),
  sizes: [200, 33, 1000, 3000],
  constexprs: { BLOCK_M: 32, BLOCK_N: 16, BLOCK_D: 64, HEAD_DIM: 64, IS_CAUSAL: 0 },
});

export const attentionCausal64 = defineRun({
  kernel: attn_fwd,
  ...attentionRun({ Z: 1, H: 2, D: 64 }, true),
  sizes: [200, 33, 1000, 3000],
  constexprs: { BLOCK_M: 32, BLOCK_N: 16, BLOCK_D: 64, HEAD_DIM: 64, IS_CAUSAL: 1 },
});

export const attention128 = defineRun({
  kernel: attn_fwd,
  ...attentionRun({ Z: 1, H: 2, D: 128 }, false),
  sizes: [200, 33, 1000, 3000],
  constexprs: { BLOCK_M: 16, BLOCK_N: 16, BLOCK_D: 64, HEAD_DIM: 128, IS_CAUSAL: 0 },
});

export const attentionCausal128 = defineRun({
  kernel: attn_fwd,
  ...attentionRun({ Z: 1, H: 2, D: 128 }, true),
  sizes: [200, 33, 1000, 3000],
  constexprs: { BLOCK_M: 16, BLOCK_N: 16, BLOCK_D: 64, HEAD_DIM: 128, IS_CAUSAL: 1 },
});
