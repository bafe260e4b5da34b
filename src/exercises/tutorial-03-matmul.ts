// Triton tutorial 03, "Matrix Multiplication" (triton-lang/triton, python/tutorials/03-matrix-multiplication.py, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "tutorial-03",
  series: "Triton tutorials",
  number: 3,
  title: "Matrix Multiplication",
  file: "tutorial-03-matmul.kernel.ts",
  credit: "Triton's tutorial 03-matrix-multiplication.py (triton-lang/triton, MIT)",
  task: "C = A × B for an M × K matrix A and a K × N matrix B (here 100 × 102 and 102 × 99, no multiple of a block), each program computing one BLOCK_M × BLOCK_N tile of C: walk K in steps of BLOCK_K with a float32 accumulator and tl.dot, through pointers built from the strides, masked at every edge. The tutorial then orders the programs in groups so tiles that run together share rows of A in the cache: try it once yours matches (examples/matmul.kernel.ts does).",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const matmul_kernel = kernel(function matmul_kernel(
  a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, c_ptr: Ptr<f32>,
  M: i32, N: i32, K: i32,
  stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32, stride_cm: i32, stride_cn: i32,
  BLOCK_M: constexpr, BLOCK_N: constexpr, BLOCK_K: constexpr,
) {
$BODY
});

/** Size s multiplies an s × (s + 2) matrix by an (s + 2) × (s - 1) one. */
export const matmul = defineRun({
  kernel: matmul_kernel,
  sizes: [100],
  constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 },
  grid: (s, c) => [cdiv(s, c.BLOCK_M), cdiv(s - 1, c.BLOCK_N)],
  args: (s) => {
    const M = s, K = s + 2, N = s - 1;
    return {
      a_ptr: randn(M * K), b_ptr: randn(K * N), c_ptr: empty(M * N), M, N, K,
      stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
    };
  },
  outputs: ["c_ptr"],
  reference: exerciseReference("tutorial-03"),
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  flops: (s) => 2 * s * (s + 2) * (s - 1),
  bytes: (s) => 4 * (s * (s + 2) + (s + 2) * (s - 1) + s * (s - 1)),
});
`,
  stub: `  // TODO: this program's tile (pid_m on axis 0, pid_n on axis 1): its row and column offsets,
  // pointers to the first A and B tiles, a loop over K (masked loads, acc = tl.dot(a, b, acc),
  // advance the pointers), then the masked store of acc into C.`,
  solution: `  const pid_m = tl.programId(0);
  const pid_n = tl.programId(1);
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
  tl.store(c_ptrs, acc, c_mask);`,
  hints: [
    "Triton's offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak is tl.expandDims(offs_m, 1) * stride_am + tl.expandDims(offs_k, 0) * stride_ak.",
    "Keep the tile pointers in let variables and advance them each trip: a_ptrs += BLOCK_K * stride_ak, b_ptrs += BLOCK_K * stride_bk.",
    "In trip k only K - k * BLOCK_K columns of A (rows of B) are left: mask with offs_k < that, load 0.0 elsewhere, and acc = tl.dot(a, b, acc).",
  ],
};

export function reference({ a_ptr, b_ptr, M, N, K }: { a_ptr: Float32Array; b_ptr: Float32Array; M: number; N: number; K: number }): Record<string, ArrayLike<number>> {
  const c = new Float64Array(M * N);
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += a_ptr[i * K + k] * b_ptr[k * N + j];
      c[i * N + j] = s;
    }
  return { c_ptr: c };
}
