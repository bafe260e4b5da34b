// Timing isolation, not a kernel to use (issue 28; bench/NOTES.md §42): examples/attention-f16.kernel.ts
// with its online softmax taken out and everything else kept. Both tl.dot calls stay (f16 × f16
// into f32, on subgroup matrices where the GPU has them), with the same loads of Q, K and V, the
// same key loop and the same store of Out; P is the scores themselves rounded to f16, with no scale,
// no running maximum, no exp2, no rescale of the accumulator and no row sum in the loop:
//   Out[i] = r_i · Σ_j f16(q_i · k_j) · v_j,   r_i = 1 / max_d |Σ_j f16(q_i · k_j) · v_jd|.
// The one row reduction left, the maximum in the epilogue (once a program, not a key block), is
// what keeps `mmaLaneRows` applicable: lane rows apply only to a kernel that reduces a block along
// its rows (codegen/plan.ts tilingOf), and without them the 128×32 WGSL would not have the layout
// of the generated kernel it isolates. The product is added as `acc + tl.dot(p, v)`, not
// `tl.dot(p, v, acc)`: the example rescales its accumulator every block, so its P·V leaves the
// matrices every block and is added in registers (a "once" plan); `tl.dot(p, v, acc)` would keep
// the accumulator in the matrices for the whole loop (a "loop" plan), another structure.
// test/unit/attention-no-softmax.test.ts holds both kernels' loops to the same barriers and
// workgroup traffic. Keys past N_CTX need no mask: K and V are loaded as zeros there, so their
// scores and products are 0. IS_CAUSAL keeps the causal loop bound and zeroes the scores of later
// keys (`tl.where`), so the causal shape can be timed too.
// bench/f16-cases.ts `softmaxIsolationF16` times it beside the example; its reference is the
// formula above in float64, with P rounded to f16 as the kernel rounds it (attention-check.ts
// `noSoftmaxRows`).
import { kernel, tl } from "kernel-lab";
import type { Ptr, f16, i32, constexpr } from "kernel-lab";

export const attn_fwd_f16_no_softmax = kernel(function attn_fwd_f16_no_softmax(
  Q: Ptr<f16>, K: Ptr<f16>, V: Ptr<f16>, Out: Ptr<f16>,
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
  const q = tl.load(Q + qkv_offset + tl.expandDims(offs_m, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k, row_mask, 0.0);
  let k_ptrs = K + qkv_offset + tl.expandDims(offs_n, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  let v_ptrs = V + qkv_offset + tl.expandDims(offs_n, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  let acc = tl.zeros([BLOCK_M, HEAD_DIM], "f32");
  let hi = N_CTX;
  if (IS_CAUSAL) {
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX);
  }
  for (let start_n = 0; start_n < hi; start_n += BLOCK_N) {
    const cols = start_n + offs_n;
    const key_mask = tl.expandDims(cols, 1) < N_CTX;
    const k = tl.load(k_ptrs, key_mask, 0.0);
    let qk = tl.dot(q, tl.trans(k));
    if (IS_CAUSAL) {
      qk = tl.where(tl.expandDims(offs_m, 1) >= tl.expandDims(cols, 0), qk, 0.0);
    }
    const v = tl.load(v_ptrs, key_mask, 0.0);
    acc = acc + tl.dot(tl.cast(qk, "f16"), v);
    k_ptrs += BLOCK_N * stride_m;
    v_ptrs += BLOCK_N * stride_m;
  }
  const l_i = tl.max(tl.abs(acc), 1);
  acc = acc / tl.expandDims(l_i, 1);
  const o_ptrs = Out + qkv_offset + tl.expandDims(offs_m, 1) * stride_m + tl.expandDims(offs_d, 0) * stride_k;
  tl.store(o_ptrs, tl.cast(acc, "f16"), row_mask);
});
