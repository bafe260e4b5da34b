// Fused attention, forward pass, in half precision as Triton tutorial 06 runs it: Q, K and V are
// f16, Out = softmax(Q·Kᵀ·sm_scale)·V is written in f16, and everything in between is f32 except P,
// which is rounded to f16 for the second product (`p.to(tl.float16)` in the tutorial). Each program
// owns one BLOCK_M block of query rows of one (batch, head), loads it once, and walks the keys in
// BLOCK_N blocks with an online softmax (a running row maximum m_i and sum l_i rescale the
// accumulator whenever the maximum grows). Both tl.dot calls multiply two f16 blocks into f32: on
// subgroup matrices (tensor cores) where the GPU offers them (codegen/mma.ts; Kernel Lab asks Dawn
// for them when a file uses f16, README "Half precision"), else on the generic tiled path.
// K is loaded as [BLOCK_N, HEAD_DIM] rows (contiguous) and transposed in the dot, which loads it
// column-major rather than moving it. The softmax works in base 2 as the tutorial's does: the
// scale is folded into qk_scale = sm_scale · log2(e) and exp2 replaces exp.
// IS_CAUSAL (constexpr 0/1) masks keys after the query and stops the key loop at the end of the
// query block. The sequence length need not be a multiple of either block: keys past N_CTX score
// -Infinity, rows past N_CTX are not stored.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f16, f32, i32, constexpr } from "kernel-lab";

export const attn_fwd_f16 = kernel(function attn_fwd_f16(
  Q: Ptr<f16>, K: Ptr<f16>, V: Ptr<f16>, Out: Ptr<f16>, sm_scale: f32,
  // Q, K, V and Out share one [Z, H, N_CTX, HEAD_DIM] layout, so one set of strides.
  stride_z: i32, stride_h: i32, stride_m: i32, stride_k: i32,
  H: i32, N_CTX: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, HEAD_DIM: constexpr, IS_CAUSAL: constexpr,
) {
  const start_m = tl.programId(0);
  const off_hz = tl.programId(1);
  const off_z = off_hz / H;
  const off_h = off_hz % H;
  const qkv_offset = off_z * stride_z + off_h * stride_h;
  const offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M);
  const offs_n = tl.arange(0, BLOCK_N);
  const offs_d = tl.arange(0, HEAD_DIM);
  const row_mask = tl.expandDims(offs_m, 1) < N_CTX;
  // The query block, loaded once; K and V blocks of BLOCK_N rows, advanced every trip.
  const q = tl.load(Q + qkv_offset + tl.expandDims(offs_m, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k, row_mask, 0.0);
  let k_ptrs = K + qkv_offset + tl.expandDims(offs_n, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  let v_ptrs = V + qkv_offset + tl.expandDims(offs_n, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  const qk_scale = sm_scale * 1.44269504;
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
    const key_mask = tl.expandDims(cols, 1) < N_CTX;
    const k = tl.load(k_ptrs, key_mask, 0.0);
    // S = Q·Kᵀ: f16 × f16, accumulated in f32.
    let qk = tl.dot(q, tl.trans(k));
    qk = tl.where(tl.expandDims(cols, 0) < N_CTX, qk * qk_scale, -Infinity);
    if (IS_CAUSAL) {
      qk = tl.where(tl.expandDims(offs_m, 1) >= tl.expandDims(cols, 0), qk, -Infinity);
    }
    // Online softmax in base 2. Key 0 is in every row's first block, so m_ij is finite from trip one on.
    const m_ij = tl.maximum(m_i, tl.max(qk, 1));
    const p = tl.exp2(qk - tl.expandDims(m_ij, 1));
    const alpha = tl.exp2(m_i - m_ij);
    l_i = l_i * alpha + tl.sum(p, 1);
    const v = tl.load(v_ptrs, key_mask, 0.0);
    // P·V with P rounded to f16, as the tutorial does; the accumulator stays f32.
    acc = tl.dot(tl.cast(p, "f16"), v, acc * tl.expandDims(alpha, 1));
    m_i = m_ij;
    k_ptrs += BLOCK_N * stride_m;
    v_ptrs += BLOCK_N * stride_m;
  }
  acc = acc / tl.expandDims(l_i, 1);
  const o_ptrs = Out + qkv_offset + tl.expandDims(offs_m, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  tl.store(o_ptrs, tl.cast(acc, "f16"), row_mask);
});

// ---- runs ------------------------------------------------------------------------------------

/** A problem: Z batches × H heads × N_CTX rows of HEAD_DIM. Runs take the sequence length as size. */
interface Shape { Z: number; H: number; D: number }

/** softmax(Q·Kᵀ·scale)·V in float64 of the (already f16-rounded) inputs, one (batch, head) and row at a time. */
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

/** Everything of a run but its kernel and constexprs, which stay literal in each defineRun. */
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
    // Against float64 of the f16 inputs, what is left is P rounded to f16 (2^-11 relative per
    // weight) and Out rounded to f16 (2^-11 relative): outputs are convex combinations of V's
    // rows, of order 1. Seen on lavapipe and --cpu (sizes 33 to 1000): at most ~1.5e-3 off.
    tolerance: { atol: 4e-3, rtol: 4e-3 },
    // Q·Kᵀ and P·V: 2 · 2 · N² · D per (batch, head); causal does half of it.
    flops: (n: number) => (4 * Z * H * n * n * D) / (causal ? 2 : 1),
  };
}

// Size is the sequence length N_CTX, for 1 batch × 2 heads: 200, 33 and 1000 are no multiples of
// a block. 32 × 16 blocks over 2 subgroups (within WebGPU's default 16 KiB of workgroup memory,
// what --cpu compiles for): both dots on 16×16 subgroup matrices on the H200; on lavapipe (no
// subgroup matrices) the generic tiled tl.dot. The suite times 4 × 32 × 4096 × 64 over larger
// shapes (bench/f16-cases.ts): 64 × 64 over 8 subgroups led there (bench/NOTES.md §20).
export const attentionF16 = defineRun({
  kernel: attn_fwd_f16,
  ...attentionRun({ Z: 1, H: 2, D: 64 }, false),
  sizes: [200, 33, 1000],
  constexprs: { BLOCK_M: 32, BLOCK_N: 16, HEAD_DIM: 64, IS_CAUSAL: 0, num_warps: 2 },
});

export const attentionCausalF16 = defineRun({
  kernel: attn_fwd_f16,
  ...attentionRun({ Z: 1, H: 2, D: 64 }, true),
  sizes: [200, 33, 1000],
  constexprs: { BLOCK_M: 32, BLOCK_N: 16, HEAD_DIM: 64, IS_CAUSAL: 1, num_warps: 2 },
});
