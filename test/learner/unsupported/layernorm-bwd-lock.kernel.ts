// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton tutorial 05 "Layer Normalization" (triton-lang/triton python/tutorials/05-layer-normalization.py),
// _layer_norm_bwd_dx_fused's spin lock around the partial dW/db accumulation:
//   while tl.atomic_cas(Lock, 0, 1) == 1: pass
// Construct: a while loop (whose condition is an atomic compare-and-swap).
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const lock_kernel = kernel(function lock_kernel(Lock: Ptr<i32>, DW: Ptr<f32>, dw_ptr: Ptr<f32>, N: i32, BLOCK_SIZE_N: constexpr) {
  const cols = tl.arange(0, BLOCK_SIZE_N);
  const mask = cols < N;
  const partial_dw = tl.load(dw_ptr + tl.programId(0) * N + cols, mask);
  while (tl.atomicCas(Lock, 0, 1) === 1) {}
  const dw = tl.load(DW + cols, mask) + partial_dw;
  tl.store(DW + cols, dw, mask);
  tl.atomicXchg(Lock, 0);
});

export const lock = defineRun({
  kernel: lock_kernel, sizes: [100], constexprs: { BLOCK_SIZE_N: 128 }, grid: () => [4],
  args: (n) => ({ Lock: new Int32Array(1), DW: new Float32Array(n), dw_ptr: rand(4 * n), N: n }), outputs: ["DW"],
  reference: ({ DW }) => ({ DW }),
});
