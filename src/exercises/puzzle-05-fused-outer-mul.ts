// Triton-Puzzles 5, "Fused Outer Multiplication" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-05",
  series: "Triton-Puzzles",
  number: 5,
  title: "Fused Outer Multiplication",
  file: "puzzle-05-fused-outer-mul.kernel.ts",
  credit: "Triton-Puzzles, puzzle 5 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "z[j, i] = relu(x[i] * y[j]) — the outer product and the ReLU in one kernel (fused: the product never goes to memory). x has N0 = 100 elements, y N1 = 90, tiles of 32 × 32 on a 2-D grid, as in puzzle 4.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const mul_relu_block_kernel = kernel(function mul_relu_block_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, B0: constexpr, B1: constexpr,
) {
$BODY
});

export const fusedOuterMul = defineRun({
  kernel: mul_relu_block_kernel,
  sizes: [100],
  constexprs: { B0: 32, B1: 32 },
  grid: (n, c) => [cdiv(n, c.B0), cdiv(n - 10, c.B1)],
  args: (n) => ({ x_ptr: randn(n), y_ptr: randn(n - 10), z_ptr: empty(n * (n - 10)), N0: n, N1: n - 10 }),
  outputs: ["z_ptr"],
  // z is N1 × N0, row-major: the access map and a mismatch's heatmap draw it so.
  shapes: (n) => ({ z_ptr: [n - 10, n] }),
  reference: exerciseReference("puzzle-05"),
  tolerance: { atol: 1e-6, rtol: 1e-6 },
});
`,
  stub: `  // TODO: as puzzle 4, with the product of x and y through relu (max with 0) instead of the sum.`,
  solution: `  const pid_0 = tl.programId(0);
  const pid_1 = tl.programId(1);
  const off_x = pid_0 * B0 + tl.arange(0, B0);
  const off_y = pid_1 * B1 + tl.arange(0, B1);
  const x = tl.load(x_ptr + off_x, off_x < N0);
  const y = tl.load(y_ptr + off_y, off_y < N1);
  const z = tl.maximum(tl.expandDims(x, 0) * tl.expandDims(y, 1), 0.0);
  const off_z = tl.expandDims(off_y, 1) * N0 + tl.expandDims(off_x, 0);
  const mask_z = tl.expandDims(off_y, 1) < N1 && tl.expandDims(off_x, 0) < N0;
  tl.store(z_ptr + off_z, z, mask_z);`,
  hints: [
    "Start from puzzle 4's kernel: only the arithmetic changes.",
    "relu(v) is tl.maximum(v, 0.0) (Math.max runs on the CPU; a kernel uses tl.maximum, element-wise).",
  ],
};

export function reference({ x_ptr, y_ptr, N0, N1 }: { x_ptr: Float32Array; y_ptr: Float32Array; N0: number; N1: number }): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N0 * N1);
  for (let j = 0; j < N1; j++) for (let i = 0; i < N0; i++) z[j * N0 + i] = Math.max(x_ptr[i] * y_ptr[j], 0);
  return { z_ptr: z };
}
