// Matrix multiplication (Triton tutorial 03): each program computes one BLOCK_M × BLOCK_N tile
// of C = A × B, walking K in steps of BLOCK_K with a float32 accumulator. Pointers to the tiles
// are built the Triton way: offs_m[:, None] * stride + offs_k[None, :] is
// tl.expandDims(offs_m, 1) * stride + tl.expandDims(offs_k, 0). M, N and K need not be
// multiples of the blocks: the edges are masked. The programs run in the tutorial's grouped order:
// a 1-D grid walked GROUP_M tile-rows at a time, so the tiles that run together share rows of A
// and columns of B in the L2 (on the H200: bench/NOTES.md §13).
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const matmul_kernel = kernel(function matmul_kernel(
  a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, c_ptr: Ptr<f32>,
  M: i32, N: i32, K: i32,
  stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32, stride_cm: i32, stride_cn: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, BLOCK_K: constexpr,
) {
  const GROUP_M = 8;
  const pid = tl.programId(0);
  const num_pid_m = tl.cdiv(M, BLOCK_M);
  const num_pid_n = tl.cdiv(N, BLOCK_N);
  const num_pid_in_group = GROUP_M * num_pid_n;
  const group_id = pid / num_pid_in_group;
  const first_pid_m = group_id * GROUP_M;
  const group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M);
  const pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  const pid_n = (pid % num_pid_in_group) / group_size_m;
  const offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M);
  const offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N);
  const offs_k = tl.arange(0, BLOCK_K);
  let a_ptrs = a_ptr + (tl.expandDims(offs_m, 1) * stride_am + tl.expandDims(offs_k, 0) * stride_ak);
  let b_ptrs = b_ptr + (tl.expandDims(offs_k, 1) * stride_bk + tl.expandDims(offs_n, 0) * stride_bn);
  let acc = tl.zeros([BLOCK_M, BLOCK_N], "f32");
  for (let k = 0; k < tl.cdiv(K, BLOCK_K); k++) {
    const k_left = K - k * BLOCK_K;
    const a = tl.load(a_ptrs, tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_k, 0) < k_left, 0.0);
    const b = tl.load(b_ptrs, tl.expandDims(offs_k, 1) < k_left && tl.expandDims(offs_n, 0) < N, 0.0);
    acc = tl.dot(a, b, acc);
    a_ptrs += BLOCK_K * stride_ak;
    b_ptrs += BLOCK_K * stride_bk;
  }
  const c_ptrs = c_ptr + tl.expandDims(offs_m, 1) * stride_cm + tl.expandDims(offs_n, 0) * stride_cn;
  const c_mask = tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_n, 0) < N;
  tl.store(c_ptrs, acc, c_mask);
});

/**
 * Size s multiplies an s × (s + 2) matrix by an (s + 2) × (s - 1) one: nothing is a multiple of a block.
 * The tile shape that runs fastest depends on the GPU and the size, so the run lists candidates
 * (`configs`, each merged over `constexprs`): Kernel Lab checks and times each, runs the fastest
 * correct one, and remembers the choice for this adapter and size (`--retune` tunes again).
 */
export const matmul = defineRun({
  kernel: matmul_kernel,
  sizes: [127, 1, 33, 64, 257],
  constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 },
  configs: [
    { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 },
    { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 },
    { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 },
    { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 16 },
    { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 16 },
    { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32 },
  ],
  grid: (s, c) => [cdiv(s, c.BLOCK_M) * cdiv(Math.max(s - 1, 1), c.BLOCK_N)],
  args: (s) => {
    const M = s, K = s + 2, N = Math.max(s - 1, 1);
    return {
      a_ptr: randn(M * K), b_ptr: randn(K * N), c_ptr: empty(M * N), M, N, K,
      stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
    };
  },
  outputs: ["c_ptr"],
  // Each matrix's [rows, cols]: the access map (`--program`) draws A's and B's tiles on them.
  shapes: (s) => ({ a_ptr: [s, s + 2], b_ptr: [s + 2, Math.max(s - 1, 1)], c_ptr: [s, Math.max(s - 1, 1)] }),
  reference: ({ a_ptr, b_ptr, M, N, K }) => {
    const c = new Float32Array(M * N);
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let k = 0; k < K; k++) s += a_ptr[i * K + k] * b_ptr[k * N + j];
        c[i * N + j] = s;
      }
    return { c_ptr: c };
  },
  // float32 accumulation over K terms of randn × randn: scale the tolerance with K.
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  flops: (s) => 2 * s * (s + 2) * Math.max(s - 1, 1),
  // The least a launch must move (A and B read once, C written once): with flops, the run's
  // point on the roofline (its FLOP per byte) in the results panel.
  bytes: (s) => 4 * (s * (s + 2) + (s + 2) * Math.max(s - 1, 1) + s * Math.max(s - 1, 1)),
});
