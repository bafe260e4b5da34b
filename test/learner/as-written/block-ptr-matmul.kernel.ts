// Matrix multiplication through block pointers, as Triton's block-pointer matmul writes it
// (written here from the algorithm): each program's A and B tiles are windows of tl.makeBlockPtr,
// tl.advance moves them along K, and tl.load's boundaryCheck with paddingOption "zero" masks the
// edges; C is stored through a block pointer too. Programs run in tutorial 03's grouped order,
// computed with tl.swizzle2d.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const matmul_kernel_with_block_pointers = kernel(function matmul_kernel_with_block_pointers(
  a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, c_ptr: Ptr<f32>, M: i32, N: i32, K: i32,
  stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32, stride_cm: i32, stride_cn: i32,
  BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr, BLOCK_SIZE_K: constexpr, GROUP_SIZE_M: constexpr,
) {
  const pid = tl.programId(0);
  const num_pid_m = tl.cdiv(M, BLOCK_SIZE_M);
  const num_pid_n = tl.cdiv(N, BLOCK_SIZE_N);
  // Program pid, as row pid / num_pid_n, column pid % num_pid_n, taken in groups of GROUP_SIZE_M rows.
  const [pid_m, pid_n] = tl.swizzle2d(pid / num_pid_n, pid % num_pid_n, num_pid_m, num_pid_n, GROUP_SIZE_M);

  let a_block_ptr = tl.makeBlockPtr(a_ptr, [M, K], [stride_am, stride_ak], [pid_m * BLOCK_SIZE_M, 0], [BLOCK_SIZE_M, BLOCK_SIZE_K], [1, 0]);
  let b_block_ptr = tl.makeBlockPtr(b_ptr, [K, N], [stride_bk, stride_bn], [0, pid_n * BLOCK_SIZE_N], [BLOCK_SIZE_K, BLOCK_SIZE_N], [1, 0]);

  let accumulator = tl.zeros([BLOCK_SIZE_M, BLOCK_SIZE_N], "f32");
  for (let k = 0; k < K; k += BLOCK_SIZE_K) {
    const a = tl.load(a_block_ptr, { boundaryCheck: [0, 1], paddingOption: "zero" });
    const b = tl.load(b_block_ptr, { boundaryCheck: [0, 1], paddingOption: "zero" });
    accumulator = tl.dot(a, b, accumulator);
    a_block_ptr = tl.advance(a_block_ptr, [0, BLOCK_SIZE_K]);
    b_block_ptr = tl.advance(b_block_ptr, [BLOCK_SIZE_K, 0]);
  }

  const c_block_ptr = tl.makeBlockPtr(c_ptr, [M, N], [stride_cm, stride_cn], [pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N], [BLOCK_SIZE_M, BLOCK_SIZE_N], [1, 0]);
  tl.store(c_block_ptr, accumulator, { boundaryCheck: [0, 1] });
});

/** Size s: an s × (s + 2) matrix times an (s + 2) × (s - 1) one, nothing a multiple of a block. */
export const blockPointerMatmul = defineRun({
  kernel: matmul_kernel_with_block_pointers,
  sizes: [127, 33, 200],
  constexprs: { BLOCK_SIZE_M: 32, BLOCK_SIZE_N: 32, BLOCK_SIZE_K: 16, GROUP_SIZE_M: 4 },
  grid: (s, c) => [cdiv(s, c.BLOCK_SIZE_M) * cdiv(s - 1, c.BLOCK_SIZE_N)],
  args: (s) => {
    const [M, K, N] = [s, s + 2, s - 1];
    return {
      a_ptr: randn(M * K), b_ptr: randn(K * N), c_ptr: empty(M * N), M, N, K,
      stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
    };
  },
  outputs: ["c_ptr"],
  reference: ({ a_ptr, b_ptr, M, N, K }) => {
    const c = new Float64Array(M * N);
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let k = 0; k < K; k++) s += a_ptr[i * K + k] * b_ptr[k * N + j];
        c[i * N + j] = s;
      }
    return { c_ptr: c };
  },
  tolerance: { atol: 1e-3, rtol: 1e-4 },
  flops: (s) => 2 * s * (s + 2) * (s - 1),
});
