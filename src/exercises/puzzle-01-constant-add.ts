// Triton-Puzzles 1, "Constant Add" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-01",
  series: "Triton-Puzzles",
  number: 1,
  title: "Constant Add",
  file: "puzzle-01-constant-add.kernel.ts",
  credit: "Triton-Puzzles, puzzle 1 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "Add 10 to each element of x: z[i] = x[i] + 10. There is one program and its block B0 covers the whole vector (N0 = B0 = 32), so no mask is needed.",
  template: `import { kernel, tl, defineRun, rand, empty, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_kernel = kernel(function add_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, B0: constexpr) {
$BODY
});

export const constantAdd = defineRun({
  kernel: add_kernel,
  sizes: [32],
  constexprs: { B0: 32 },
  grid: () => [1],
  args: (n) => ({ x_ptr: rand(n), z_ptr: empty(n), N0: n }),
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-01"),
});
`,
  stub: `  // TODO: the block's offsets (tl.arange), load x there, store x + 10 to z.`,
  solution: `  const range = tl.arange(0, B0);
  const x = tl.load(x_ptr + range);
  tl.store(z_ptr + range, x + 10.0);`,
  hints: [
    "A block of offsets is tl.arange(0, B0): the i32 block [0, 1, …, B0 - 1].",
    "x_ptr + range is a block of pointers; tl.load(x_ptr + range) reads B0 elements at once.",
    "tl.store(z_ptr + range, x + 10.0) writes them back: arithmetic on a block applies to every element.",
  ],
};

export function reference({ x_ptr }: { x_ptr: Float32Array }): Record<string, ArrayLike<number>> {
  return { z_ptr: Float64Array.from(x_ptr, (v) => v + 10) };
}
