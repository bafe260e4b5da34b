// examples/matmul-f16.kernel.ts with GROUP_M = 1: the programs walk C's tiles row by row, as
// bench/mma-kernels.ts's hand-written kernels with order "rows" do, where the example groups 8 tile-rows
// (tutorial 03's L2 swizzle). Everything else is the example's kernel as written. For isolating what the
// program order costs the odd size (bench/NOTES.md §84), not for use.
import { kernel, tl } from "kernel-lab";
import type { Ptr, f16, f32, i32, constexpr } from "kernel-lab";

export const matmul_f16_kernel = kernel(function matmul_f16_kernel(
  a_ptr: Ptr<f16>, b_ptr: Ptr<f16>, c_ptr: Ptr<f32>,
  M: i32, N: i32, K: i32,
  stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32, stride_cm: i32, stride_cn: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, BLOCK_K: constexpr,
) {
  // One tile-row at a time: programs in row order, as the hand-written kernels' "rows" (the one change).
  const GROUP_M = 1;
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
