// examples/matmul.kernel.ts's kernel (Triton's tutorial 03) with a run the web tests can afford:
// an s × (s + 2) by (s + 2) × (s - 1) product, nothing a multiple of a block.
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

// One small tile and a small size: SwiftShader (the browser's WebGPU without a GPU) takes seconds
// to compile each tile, about 12 s for each of the example's larger ones, so nothing is autotuned.
export const smallMatmul = defineRun({
  kernel: matmul_kernel,
  sizes: [33, 17],
  constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 },
  grid: (s, c) => [cdiv(s, c.BLOCK_M) * cdiv(Math.max(s - 1, 1), c.BLOCK_N)],
  args: (s) => {
    const M = s, K = s + 2, N = Math.max(s - 1, 1);
    return {
      a_ptr: randn(M * K), b_ptr: randn(K * N), c_ptr: empty(M * N), M, N, K,
      stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
    };
  },
  outputs: ["c_ptr"],
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
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  flops: (s) => 2 * s * (s + 2) * Math.max(s - 1, 1),
});
