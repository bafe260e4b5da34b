// Split-K matrix multiplication for tall-skinny shapes: C = A × B where M and N are small and K is
// long (a 256 × 65536 by 65536 × 256 product has only 4 tiles of 128 × 128 — 4 programs for a GPU
// of 132 SMs). The K range is cut into SPLIT_K slices; program (tile, s) multiplies slice s of its
// tile's rows and columns into a partial tile, and a second launch sums the SPLIT_K partials. Two
// launches instead of Triton's `tl.atomic_add` into C: the sum is the same on every run, and C
// needs no zeroing first.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const matmul_partial_kernel = kernel(function matmul_partial_kernel(
  a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, partial_ptr: Ptr<f32>,
  M: i32, N: i32, K: i32, K_PER_SPLIT: i32,
  stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, BLOCK_K: constexpr,
) {
  const pid = tl.programId(0);
  const split = tl.programId(1);
  const num_pid_n = tl.cdiv(N, BLOCK_N);
  const pid_m = pid / num_pid_n;
  const pid_n = pid % num_pid_n;
  const offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M);
  const offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N);
  const k_start = split * K_PER_SPLIT;
  const k_end = tl.minimum(k_start + K_PER_SPLIT, K);
  const offs_k = tl.arange(0, BLOCK_K);
  let a_ptrs = a_ptr + (tl.expandDims(offs_m, 1) * stride_am + tl.expandDims(k_start + offs_k, 0) * stride_ak);
  let b_ptrs = b_ptr + (tl.expandDims(k_start + offs_k, 1) * stride_bk + tl.expandDims(offs_n, 0) * stride_bn);
  let acc = tl.zeros([BLOCK_M, BLOCK_N], "f32");
  for (let k = 0; k < tl.cdiv(K_PER_SPLIT, BLOCK_K); k++) {
    const k_left = k_end - (k_start + k * BLOCK_K);
    const a = tl.load(a_ptrs, tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_k, 0) < k_left, 0.0);
    const b = tl.load(b_ptrs, tl.expandDims(offs_k, 1) < k_left && tl.expandDims(offs_n, 0) < N, 0.0);
    acc = tl.dot(a, b, acc);
    a_ptrs += BLOCK_K * stride_ak;
    b_ptrs += BLOCK_K * stride_bk;
  }
  // Partial s of C is the s-th M × N slab of partial_ptr.
  const p_ptrs = partial_ptr + split * M * N + tl.expandDims(offs_m, 1) * N + tl.expandDims(offs_n, 0);
  tl.store(p_ptrs, acc, tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_n, 0) < N);
});

/** C = the sum of the SPLIT_K partial slabs, BLOCK elements of C per program. */
export const sum_partials_kernel = kernel(function sum_partials_kernel(
  partial_ptr: Ptr<f32>, c_ptr: Ptr<f32>, MN: i32, SPLIT_K: constexpr, BLOCK: constexpr,
) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offs < MN;
  let acc = tl.zeros([BLOCK], "f32");
  for (let s = 0; s < SPLIT_K; s++) {
    acc += tl.load(partial_ptr + s * MN + offs, mask, 0.0);
  }
  tl.store(c_ptr + offs, acc, mask);
});

/** Slices of K: 16 for the defaults below; a 4-tile product then runs 64 programs. */
const SPLIT_K = 16;
const BLOCK_K = 16;

/** Size s: an s × K by K × (s - 1) product with K = 64 s + 3 (nothing a multiple of a block). */
function shape(s: number) {
  return { M: s, N: Math.max(s - 1, 1), K: 64 * s + 3 };
}

export const matmulSplitK = defineRun({
  sizes: [67, 1, 130, 256],
  launches: [
    {
      kernel: matmul_partial_kernel,
      constexprs: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K },
      grid: (s, c) => [cdiv(shape(s).M, c.BLOCK_M) * cdiv(shape(s).N, c.BLOCK_N), SPLIT_K],
    },
    {
      kernel: sum_partials_kernel,
      constexprs: { SPLIT_K, BLOCK: 1024 },
      grid: (s, c) => [cdiv(shape(s).M * shape(s).N, c.BLOCK)],
      args: { partial_ptr: "partial_ptr", c_ptr: "c_ptr", MN: "MN" },
    },
  ],
  args: (s) => {
    const { M, N, K } = shape(s);
    // Each slice a whole number of BLOCK_K steps, so only the last slice ends early.
    const K_PER_SPLIT = cdiv(cdiv(K, SPLIT_K), BLOCK_K) * BLOCK_K;
    return {
      a_ptr: randn(M * K), b_ptr: randn(K * N), partial_ptr: empty(SPLIT_K * M * N), c_ptr: empty(M * N),
      M, N, K, K_PER_SPLIT, MN: M * N,
      stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1,
    };
  },
  outputs: ["c_ptr"],
  reference: ({ a_ptr, b_ptr, M, N, K }) => {
    const c = new Float64Array(M * N);
    for (let i = 0; i < M; i++)
      for (let k = 0; k < K; k++) {
        const a = a_ptr[i * K + k];
        for (let j = 0; j < N; j++) c[i * N + j] += a * b_ptr[k * N + j];
      }
    return { c_ptr: c };
  },
  // float32 sums of K = 64 s products of randn × randn (|C| ~ sqrt(K)): the tolerance grows with K.
  tolerance: { atol: 2e-3, rtol: 1e-4 },
  flops: (s) => 2 * shape(s).M * shape(s).N * shape(s).K,
});
