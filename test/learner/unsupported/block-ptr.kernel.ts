// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton tutorial 06 (older versions) loads Q through a block pointer:
// tl.make_block_ptr(base=Q + off, shape=(N_CTX, HEAD_DIM), strides=(s_m, s_k), offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0)).
// Construct: tl.makeBlockPtr.
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const copy_kernel = kernel(function copy_kernel(q_ptr: Ptr<f32>, o_ptr: Ptr<f32>, N_CTX: i32, HEAD_DIM: constexpr, BLOCK_M: constexpr) {
  const start_m = tl.programId(0);
  const q_block = tl.makeBlockPtr(q_ptr, [N_CTX, HEAD_DIM], [HEAD_DIM, 1], [start_m * BLOCK_M, 0], [BLOCK_M, HEAD_DIM], [1, 0]);
  const q = tl.load(q_block);
  const offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M);
  tl.store(o_ptr + tl.expandDims(offs_m, 1) * HEAD_DIM + tl.expandDims(tl.arange(0, HEAD_DIM), 0), q, tl.expandDims(offs_m, 1) < N_CTX);
});

export const copy = defineRun({
  kernel: copy_kernel, sizes: [45], constexprs: { HEAD_DIM: 16, BLOCK_M: 16 }, grid: (n, c) => [cdiv(n, c.BLOCK_M)],
  args: (n) => ({ q_ptr: rand(n * 16), o_ptr: empty(n * 16), N_CTX: n }), outputs: ["o_ptr"],
  reference: ({ q_ptr }) => ({ o_ptr: q_ptr }),
});
