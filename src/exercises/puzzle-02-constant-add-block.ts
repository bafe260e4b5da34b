// Triton-Puzzles 2, "Constant Add Block" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-02",
  series: "Triton-Puzzles",
  number: 2,
  title: "Constant Add Block",
  file: "puzzle-02-constant-add-block.kernel.ts",
  credit: "Triton-Puzzles, puzzle 2 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "Add 10 to each element of x again, now with N0 = 200 elements and blocks of B0 = 32: one program per block (the grid is cdiv(N0, B0)), and the last block runs past the end of x, so mask it.",
  template: `import { kernel, tl, defineRun, rand, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_mask2_kernel = kernel(function add_mask2_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, B0: constexpr) {
$BODY
});

export const constantAddBlock = defineRun({
  kernel: add_mask2_kernel,
  sizes: [200],
  constexprs: { B0: 32 },
  grid: (n, c) => [cdiv(n, c.B0)],
  args: (n) => ({ x_ptr: rand(n), z_ptr: empty(n), N0: n }),
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-02"),
});
`,
  stub: `  // TODO: this program's block of offsets, a mask for the ones inside x, then a masked load and store.`,
  solution: `  const pid = tl.programId(0);
  const offs = pid * B0 + tl.arange(0, B0);
  const mask = offs < N0;
  const x = tl.load(x_ptr + offs, mask);
  tl.store(z_ptr + offs, x + 10.0, mask);`,
  hints: [
    "tl.programId(0) says which block this program owns: its offsets start at pid * B0.",
    "offs < N0 is a mask: a boolean block, true where the offset is inside x.",
    "Pass the mask to both tl.load(x_ptr + offs, mask) and tl.store(z_ptr + offs, x + 10.0, mask): masked-off lanes read 0 and write nothing.",
  ],
};

export function reference({ x_ptr }: { x_ptr: Float32Array }): Record<string, ArrayLike<number>> {
  return { z_ptr: Float64Array.from(x_ptr, (v) => v + 10) };
}
