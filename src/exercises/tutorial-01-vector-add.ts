// Triton tutorial 01, "Vector Addition" (triton-lang/triton, python/tutorials/01-vector-add.py, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "tutorial-01",
  series: "Triton tutorials",
  number: 1,
  title: "Vector Addition",
  file: "tutorial-01-vector-add.kernel.ts",
  credit: "Triton's tutorial 01-vector-add.py (triton-lang/triton, MIT)",
  task: "output = x + y for vectors of n_elements = 98,432 floats, BLOCK_SIZE = 1024 elements per program: each program adds its block, and the last block is masked. Once it matches, read the Speed of light line: how close does it come to this GPU's bandwidth, and why?",
  template: `import { kernel, tl, defineRun, rand, empty, cdiv, builtins, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_kernel = kernel(function add_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, BLOCK_SIZE: constexpr,
) {
$BODY
});

export const vectorAdd = defineRun({
  kernel: add_kernel,
  sizes: [98432],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), output_ptr: empty(n), n_elements: n }),
  outputs: ["output_ptr"],
  reference: exerciseReference("tutorial-01"),
  bytes: (n) => 12 * n,
  baseline: builtins.add,
});
`,
  stub: `  // TODO: this program's block of offsets, a mask for the tail, load x and y, store their sum.`,
  solution: `  const pid = tl.programId(0);
  const block_start = pid * BLOCK_SIZE;
  const offsets = block_start + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  const y = tl.load(y_ptr + offsets, mask);
  const output = x + y;
  tl.store(output_ptr + offsets, output, mask);`,
  hints: [
    "Program pid owns elements pid * BLOCK_SIZE … pid * BLOCK_SIZE + BLOCK_SIZE - 1: that is pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE).",
    "98,432 is not a multiple of 1024: the mask offsets < n_elements keeps the last program inside the arrays.",
    "Loads and the store all take the mask: tl.load(x_ptr + offsets, mask), tl.store(output_ptr + offsets, x + y, mask).",
  ],
};

export function reference({ x_ptr, y_ptr }: { x_ptr: Float32Array; y_ptr: Float32Array }): Record<string, ArrayLike<number>> {
  return { output_ptr: x_ptr.map((v, i) => v + y_ptr[i]) };
}
