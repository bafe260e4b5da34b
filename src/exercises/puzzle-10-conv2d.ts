// Triton-Puzzles 10, "Two Dimensional Convolution" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-10",
  series: "Triton-Puzzles",
  number: 10,
  title: "Two Dimensional Convolution",
  file: "puzzle-10-conv2d.kernel.ts",
  credit: "Triton-Puzzles, puzzle 10 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "Convolve a batch of N0 = 4 one-channel 8 × 8 images with a 4 × 4 kernel k: z[i, j, l] = Σ_{oj, ol} k[oj, ol] · x[i, j + oj, l + ol], where x is zero past its bottom and right edges. One program per image (B0 = 1); load k once as a KH × KW block, then for each output pixel load its KH × KW window (masked at the edges), multiply and sum.",
  template: `import { kernel, tl, defineRun, randn, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const conv2d_kernel = kernel(function conv2d_kernel(
  x_ptr: Ptr<f32>, k_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, H: i32, W: i32, KH: constexpr, KW: constexpr, B0: constexpr,
) {
$BODY
});

/** Size is N0, the number of images, each H × W = 8 × 8; the kernel is 4 × 4. */
export const conv2d = defineRun({
  kernel: conv2d_kernel,
  sizes: [4],
  constexprs: { KH: 4, KW: 4, B0: 1 },
  grid: (n, c) => [cdiv(n, c.B0)],
  args: (n) => ({ x_ptr: randn(n * 8 * 8), k_ptr: randn(16), z_ptr: empty(n * 8 * 8), N0: n, H: 8, W: 8 }),
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-10"),
  tolerance: { atol: 1e-5, rtol: 1e-5 },
});
`,
  stub: `  // TODO: load k as a [KH, KW] block; for each output row j and column l, load the masked window of
  // x at rows j + 0…KH-1 and columns l + 0…KW-1, multiply by k, sum it to one value, store it.`,
  solution: `  const pid_0 = tl.programId(0);
  const off_h = tl.expandDims(tl.arange(0, KH), 1);
  const off_w = tl.expandDims(tl.arange(0, KW), 0);
  const k = tl.load(k_ptr + off_h * KW + off_w);
  const image = pid_0 * B0;
  for (let j = 0; j < H; j++) {
    for (let l = 0; l < W; l++) {
      const rows = j + off_h;
      const cols = l + off_w;
      const x = tl.load(x_ptr + image * H * W + rows * W + cols, rows < H && cols < W, 0.0);
      const z = tl.sum(tl.sum(x * k, 1), 0);
      tl.store(z_ptr + image * H * W + j * W + l, z);
    }
  }`,
  hints: [
    "The kernel's offsets are 2-D: tl.expandDims(tl.arange(0, KH), 1) * KW + tl.expandDims(tl.arange(0, KW), 0).",
    "Two plain for loops over the output's rows and columns; inside, the window's rows are j + that row block, its columns l + the column block.",
    "Reduce the [KH, KW] product to one value with tl.sum(tl.sum(x * k, 1), 0), and store that scalar at z_ptr + image * H * W + j * W + l.",
  ],
};

export function reference({ x_ptr, k_ptr, N0, H, W }: { x_ptr: Float32Array; k_ptr: Float32Array; N0: number; H: number; W: number }): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N0 * H * W);
  for (let i = 0; i < N0; i++)
    for (let j = 0; j < H; j++)
      for (let l = 0; l < W; l++) {
        let s = 0;
        for (let oj = 0; oj < 4; oj++)
          for (let ol = 0; ol < 4; ol++) if (j + oj < H && l + ol < W) s += k_ptr[oj * 4 + ol] * x_ptr[i * H * W + (j + oj) * W + l + ol];
        z[i * H * W + j * W + l] = s;
      }
  return { z_ptr: z };
}
