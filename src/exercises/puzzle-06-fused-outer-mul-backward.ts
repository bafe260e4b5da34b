// Triton-Puzzles 6, "Fused Outer Multiplication - Backwards" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-06",
  series: "Triton-Puzzles",
  number: 6,
  title: "Fused Outer Multiplication - Backwards",
  file: "puzzle-06-fused-outer-mul-backward.kernel.ts",
  credit: "Triton-Puzzles, puzzle 6 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "The backward pass of f(x, y) = relu(x[j, i] * y[j]), x an N1 × N0 matrix (90 × 100) and y a vector of N1: given the gradient dz of the output (N1 × N0), compute dx = f'(x) · dz, which is y[j] · dz[j, i] where x[j, i] * y[j] > 0 and 0 elsewhere. Tiles of 32 × 32 on a 2-D grid.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const mul_relu_block_back_kernel = kernel(function mul_relu_block_back_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, dz_ptr: Ptr<f32>, dx_ptr: Ptr<f32>, N0: i32, N1: i32, B0: constexpr, B1: constexpr,
) {
$BODY
});

export const fusedOuterMulBackward = defineRun({
  kernel: mul_relu_block_back_kernel,
  sizes: [100],
  constexprs: { B0: 32, B1: 32 },
  grid: (n, c) => [cdiv(n, c.B0), cdiv(n - 10, c.B1)],
  args: (n) => ({ x_ptr: randn(n * (n - 10)), y_ptr: randn(n - 10), dz_ptr: randn(n * (n - 10)), dx_ptr: empty(n * (n - 10)), N0: n, N1: n - 10 }),
  outputs: ["dx_ptr"],
  // x, dz and dx are N1 × N0, row-major: the access map and a mismatch's heatmap draw them so.
  shapes: (n) => ({ x_ptr: [n - 10, n], dz_ptr: [n - 10, n], dx_ptr: [n - 10, n] }),
  reference: exerciseReference("puzzle-06"),
  tolerance: { atol: 1e-6, rtol: 1e-6 },
});
`,
  stub: `  // TODO: the tile's 2-D offsets and mask, load x, y (as a column) and dz, keep y * dz where x * y > 0, store dx.`,
  solution: `  const pid_0 = tl.programId(0);
  const pid_1 = tl.programId(1);
  const off_i = pid_0 * B0 + tl.arange(0, B0);
  const off_j = pid_1 * B1 + tl.arange(0, B1);
  const off_ji = tl.expandDims(off_j, 1) * N0 + tl.expandDims(off_i, 0);
  const mask_ji = tl.expandDims(off_j, 1) < N1 && tl.expandDims(off_i, 0) < N0;
  const x = tl.load(x_ptr + off_ji, mask_ji);
  const y = tl.expandDims(tl.load(y_ptr + off_j, off_j < N1), 1);
  const dz = tl.load(dz_ptr + off_ji, mask_ji);
  const dx = tl.where(x * y > 0, y * dz, 0.0);
  tl.store(dx_ptr + off_ji, dx, mask_ji);`,
  hints: [
    "x, dz and dx are all N1 × N0 and share one set of offsets: tl.expandDims(off_j, 1) * N0 + tl.expandDims(off_i, 0).",
    "y has one value per row: load it as a vector, then tl.expandDims(y, 1) makes the [B1, 1] column that broadcasts over the tile.",
    "tl.where(x * y > 0, y * dz, 0.0) picks, element by element, the gradient where the ReLU was active.",
  ],
};

export function reference({ x_ptr, y_ptr, dz_ptr, N0, N1 }: { x_ptr: Float32Array; y_ptr: Float32Array; dz_ptr: Float32Array; N0: number; N1: number }): Record<string, ArrayLike<number>> {
  const dx = new Float64Array(N0 * N1);
  for (let j = 0; j < N1; j++)
    for (let i = 0; i < N0; i++) dx[j * N0 + i] = x_ptr[j * N0 + i] * y_ptr[j] > 0 ? y_ptr[j] * dz_ptr[j * N0 + i] : 0;
  return { dx_ptr: dx };
}
