// Half-precision matrix multiplication, as Triton tutorial 03 runs it in fp16: A and B are f16,
// each program accumulates its BLOCK_M × BLOCK_N tile in float32 (`tl.dot` of two f16 blocks
// multiplies exactly and adds in f32). The tiles are staged in workgroup memory as halves; where
// the GPU offers subgroup matrices for f16 × f16 → f32 (tensor cores: on the H200 Kernel Lab
// asks Dawn for them itself, README), the loop's tl.dot runs on them (codegen/mma.ts). C is written
// in f32 here, so the check sees the accumulation itself; Triton's tutorial stores
// `tl.cast(acc, "f16")` into an f16 C. Needs `shader-f16` (lavapipe has it; `--cpu` always).
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f16, f32, i32, constexpr } from "kernel-lab";

export const matmul_f16_kernel = kernel(function matmul_f16_kernel(
  a_ptr: Ptr<f16>, b_ptr: Ptr<f16>, c_ptr: Ptr<f32>,
  M: i32, N: i32, K: i32,
  stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32, stride_cm: i32, stride_cn: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, BLOCK_K: constexpr,
) {
  // Tile-rows walked GROUP_M at a time (examples/matmul.kernel.ts says why).
  const GROUP_M = 8;
  const pid = tl.programId(0);
  const num_pid_m = tl.cdiv(M, BLOCK_M);
  const num_pid_n = tl.cdiv(N, BLOCK_N);
  const num_pid_in_group = GROUP_M * num_pid_n;
  const first_pid_m = (pid / num_pid_in_group) * GROUP_M;
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
  tl.store(c_ptrs, acc, tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_n, 0) < N);
});

/** The product in float64 of the (already f16-rounded) inputs: rows × K by K × N. */
export function referenceMatmul(a: ArrayLike<number>, b: ArrayLike<number>, M: number, N: number, K: number): Float64Array {
  const c = new Float64Array(M * N);
  for (let i = 0; i < M; i++)
    for (let k = 0; k < K; k++) {
      const x = a[i * K + k];
      for (let j = 0; j < N; j++) c[i * N + j] += x * b[k * N + j];
    }
  return c;
}

/** Size s multiplies an s × (s + 2) matrix by an (s + 2) × (s - 1) one: nothing is a multiple of a block. */
export const matmulF16 = defineRun({
  kernel: matmul_f16_kernel,
  sizes: [127, 33, 257],
  constexprs: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 },
  // Tuned per GPU and size (README, Autotuning), among the leaders of the suite's shapes on
  // subgroup matrices (bench/NOTES.md §19, §44, §57, §60, §63). Where sizes and strides are multiples
  // of 16, Kernel Lab knows each run of halves aligned and masked whole, as Triton does, and holds
  // runs of 8, read 16 bytes at a time: on the H100 (2026-12-06) 4096³ then led at 128 × 128 over 4
  // subgroups (238 TFLOP/s), 1024³ at 64 × 64 × 64 over 4 (104); odd sizes at 64 × 64 over 8 (52–58).
  configs: [{}, { num_warps: 8 }, { BLOCK_K: 64 }, { BLOCK_M: 128, num_warps: 8 }, { BLOCK_M: 128, BLOCK_N: 128, num_warps: 8 },
    { BLOCK_M: 128, BLOCK_N: 128, num_warps: 4 }, { BLOCK_M: 256, BLOCK_N: 128, num_warps: 16 }],
  grid: (s, c) => [cdiv(s, c.BLOCK_M) * cdiv(Math.max(s - 1, 1), c.BLOCK_N)],
  args: (s) => {
    const M = s, K = s + 2, N = Math.max(s - 1, 1);
    return {
      a_ptr: randn(M * K), b_ptr: randn(K * N), c_ptr: empty(M * N), M, N, K,
      stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
    };
  },
  outputs: ["c_ptr"],
  // The inputs the reference sees are the f16-rounded ones; the products of two halves are exact
  // in f32, so what is left is f32 accumulation over K terms.
  reference: ({ a_ptr, b_ptr, M, N, K }) => ({ c_ptr: Float32Array.from(referenceMatmul(a_ptr, b_ptr, M, N, K)) }),
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  flops: (s) => 2 * s * (s + 2) * Math.max(s - 1, 1),
});
