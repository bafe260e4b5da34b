// Triton-Puzzles 12, "Quantized Matrix Mult" (Sasha Rush, github.com/srush/Triton-Puzzles, MIT).
import type { Exercise } from "./exercise";

export const exercise: Exercise = {
  id: "puzzle-12",
  series: "Triton-Puzzles",
  number: 12,
  title: "Quantized Matrix Mult",
  file: "puzzle-12-quantized-matmul.kernel.ts",
  credit: "Triton-Puzzles, puzzle 12 (Sasha Rush, github.com/srush/Triton-Puzzles, MIT)",
  task: "z = (scale · (w - shift)) @ activation, where the N0 × MID weight w is stored as 4-bit values, FPINT = 8 of them to an i32 (value l of a row in bits 4·(l % 8) of word l / 8), and every GROUP = 8 weights of a row share a float scale and a 4-bit shift; a row's MID / GROUP shifts are packed in one i32 offset[j] (shift g in bits 4·g). activation is MID × N1. N0 = N1 = 32, MID = 64; tiles of 16 × 16 on a 2-D grid.",
  template: `import { kernel, tl, defineRun, randn, rand, empty, cdiv, exerciseReference } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const quant_dot_kernel = kernel(function quant_dot_kernel(
  scale_ptr: Ptr<f32>, offset_ptr: Ptr<i32>, weight_ptr: Ptr<i32>, activation_ptr: Ptr<f32>, z_ptr: Ptr<f32>,
  N0: i32, N1: i32, MID: i32, B0: constexpr, B1: constexpr, B_MID: constexpr,
) {
$BODY
});

/** Random int32s over the whole range, so every nibble (and the sign bit) varies. */
function randomWords(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = (Math.random() * 2 ** 32) | 0;
  return out;
}

/** Size is N0 = N1; MID = 64. */
export const quantizedMatmul = defineRun({
  kernel: quant_dot_kernel,
  sizes: [32],
  constexprs: { B0: 16, B1: 16, B_MID: 64 },
  grid: (n, c) => [cdiv(n, c.B0), cdiv(n, c.B1)],
  args: (n) => ({
    scale_ptr: rand(n * 8), offset_ptr: randomWords(n), weight_ptr: randomWords(n * 8),
    activation_ptr: randn(64 * n), z_ptr: empty(n * n), N0: n, N1: n, MID: 64,
  }),
  outputs: ["z_ptr"],
  reference: exerciseReference("puzzle-12"),
  tolerance: { atol: 1e-3, rtol: 1e-4 },
});
`,
  stub: `  // TODO: for this tile's rows, the packed shifts; for each B_MID columns of the weight: unpack w
  // (shift and mask with & 15), the scales and shifts of its groups, dequantize, tl.dot with activation.`,
  solution: `  const FPINT = 8;
  const GROUP = 8;
  const pid_0 = tl.programId(0);
  const pid_1 = tl.programId(1);
  const off_j = pid_0 * B0 + tl.arange(0, B0);
  const off_k = pid_1 * B1 + tl.arange(0, B1);
  const rows = tl.expandDims(off_j, 1);
  const mask_j = rows < N0;
  const shifts = tl.expandDims(tl.load(offset_ptr + off_j, off_j < N0), 1);
  let acc = tl.zeros([B0, B1], "f32");
  for (let mid = 0; mid < MID; mid += B_MID) {
    const off_l = mid + tl.arange(0, B_MID);
    const cols = tl.expandDims(off_l, 0);
    const mask = mask_j && cols < MID;
    const packed = tl.load(weight_ptr + rows * (MID / FPINT) + cols / FPINT, mask);
    const w = (packed >> ((cols % FPINT) * 4)) & 15;
    const sc = tl.load(scale_ptr + rows * (MID / GROUP) + cols / GROUP, mask);
    const sh = (shifts >> ((cols / GROUP) * 4)) & 15;
    const a = tl.load(activation_ptr + tl.expandDims(off_l, 1) * N1 + tl.expandDims(off_k, 0), tl.expandDims(off_l, 1) < MID && tl.expandDims(off_k, 0) < N1);
    acc = tl.dot(sc * tl.cast(w - sh, "f32"), a, acc);
  }
  tl.store(z_ptr + rows * N1 + tl.expandDims(off_k, 0), acc, mask_j && tl.expandDims(off_k, 0) < N1);`,
  hints: [
    "Weight column l of row j is in word j * (MID / 8) + l / 8 (integer division truncates), at bit 4 * (l % 8): (word >> ((l % 8) * 4)) & 15.",
    "Its group is l / 8: the scale is scale_ptr[j * (MID / 8) + l / 8], the shift (offset[j] >> ((l / 8) * 4)) & 15.",
    "Dequantize as floats, sc * tl.cast(w - sh, \"f32\"), then acc = tl.dot(that, activation tile, acc).",
  ],
};

export function reference(
  { scale_ptr, offset_ptr, weight_ptr, activation_ptr, N0, N1, MID }: { scale_ptr: Float32Array; offset_ptr: Int32Array; weight_ptr: Int32Array; activation_ptr: Float32Array; N0: number; N1: number; MID: number },
): Record<string, ArrayLike<number>> {
  const z = new Float64Array(N0 * N1);
  for (let j = 0; j < N0; j++)
    for (let k = 0; k < N1; k++) {
      let s = 0;
      for (let l = 0; l < MID; l++) {
        const w = (weight_ptr[j * (MID / 8) + Math.floor(l / 8)] >> (4 * (l % 8))) & 15;
        const g = Math.floor(l / 8);
        const sh = (offset_ptr[j] >> (4 * g)) & 15;
        s += scale_ptr[j * (MID / 8) + g] * (w - sh) * activation_ptr[l * N1 + k];
      }
      z[j * N1 + k] = s;
    }
  return { z_ptr: z };
}
