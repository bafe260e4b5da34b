// Triton-Puzzles, Puzzle 12 "Quantized Matrix Mult" with 3-D blocks, as its published solutions
// write the unpacking (written here from the puzzle's statement): z = (scale · (w − shift)) @ a,
// the 4-bit weights packed FPINT = 8 to an int32. A [B0, B_MID / FPINT] block of words is
// unpacked as `(w[:, :, None] >> (tl.arange(0, FPINT) * 4)[None, None, :]) & 0xF` — a
// [B0, B_MID / FPINT, FPINT] block — and reshaped to [B0, B_MID]; the shifts (one 4-bit value per
// GROUP = 8 weights, all of a row's in one int32) and the scales are stretched over their groups
// the same way.
import { kernel, tl, defineRun, randn, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

const FPINT = 8;
const GROUP = 8;

export const quant_dot_kernel = kernel(function quant_dot_kernel(
  scale_ptr: Ptr<f32>, offset_ptr: Ptr<i32>, weight_ptr: Ptr<i32>, activation_ptr: Ptr<f32>, z_ptr: Ptr<f32>,
  N0: i32, N1: i32, MID: i32, B0: constexpr, B1: constexpr, B_MID: constexpr,
) {
  const pid_0 = tl.programId(0);
  const pid_1 = tl.programId(1);
  const off_j = pid_0 * B0 + tl.arange(0, B0);
  const off_k = pid_1 * B1 + tl.arange(0, B1);
  const rows = tl.expandDims(off_j, 1);
  const nibbles = tl.expandDims(tl.arange(0, FPINT) * 4, [0, 1]); // [1, 1, FPINT]
  const shifts = tl.load(offset_ptr + off_j, off_j < N0, 0);
  let acc = tl.zeros([B0, B1], "f32");
  for (let mid = 0; mid < MID; mid += B_MID) {
    // This step's words and groups: B_MID / FPINT words and B_MID / GROUP groups per row.
    const words = tl.expandDims(mid / FPINT + tl.arange(0, B_MID / FPINT), 0);
    const groups = tl.expandDims(mid / GROUP + tl.arange(0, B_MID / GROUP), 0);
    const packed = tl.load(weight_ptr + rows * (MID / FPINT) + words, rows < N0 && words < MID / FPINT, 0);
    const w = tl.reshape((tl.expandDims(packed, 2) >> nibbles) & 0xf, [B0, B_MID]);
    const sh_groups = (tl.expandDims(shifts, 1) >> (groups * 4)) & 0xf; // [B0, B_MID / GROUP]
    const sc_groups = tl.load(scale_ptr + rows * (MID / GROUP) + groups, rows < N0 && groups < MID / GROUP, 0.0);
    const sh = tl.reshape(tl.broadcastTo(tl.expandDims(sh_groups, 2), [B0, B_MID / GROUP, GROUP]), [B0, B_MID]);
    const sc = tl.reshape(tl.broadcastTo(tl.expandDims(sc_groups, 2), [B0, B_MID / GROUP, GROUP]), [B0, B_MID]);
    const off_l = mid + tl.arange(0, B_MID);
    const a = tl.load(activation_ptr + tl.expandDims(off_l, 1) * N1 + tl.expandDims(off_k, 0), tl.expandDims(off_l, 1) < MID && tl.expandDims(off_k, 0) < N1, 0.0);
    acc = tl.dot(sc * tl.cast(w - sh, "f32"), a, acc);
  }
  tl.store(z_ptr + rows * N1 + tl.expandDims(off_k, 0), acc, rows < N0 && tl.expandDims(off_k, 0) < N1);
});

function randomWords(n: number): Int32Array {
  return Int32Array.from({ length: n }, () => (Math.random() * 2 ** 32) | 0);
}

const N1 = 29;
const MID = 64;

/** Size: N0, the rows of the weight (not a multiple of B0). */
export const quantizedMatmul3d = defineRun({
  kernel: quant_dot_kernel,
  sizes: [37, 16],
  constexprs: { B0: 16, B1: 16, B_MID: 32 },
  grid: (n, c) => [cdiv(n, c.B0), cdiv(N1, c.B1)],
  args: (n) => ({
    scale_ptr: rand(n * (MID / GROUP)), offset_ptr: randomWords(n), weight_ptr: randomWords(n * (MID / FPINT)),
    activation_ptr: randn(MID * N1), z_ptr: empty(n * N1), N0: n, N1, MID,
  }),
  outputs: ["z_ptr"],
  reference: ({ scale_ptr, offset_ptr, weight_ptr, activation_ptr }, n) => {
    const z = new Float64Array(n * N1);
    for (let j = 0; j < n; j++)
      for (let k = 0; k < N1; k++) {
        let s = 0;
        for (let l = 0; l < MID; l++) {
          const w = (weight_ptr[j * (MID / FPINT) + Math.floor(l / FPINT)] >> (4 * (l % FPINT))) & 15;
          const g = Math.floor(l / GROUP);
          const sh = (offset_ptr[j] >> (4 * g)) & 15;
          s += scale_ptr[j * (MID / GROUP) + g] * (w - sh) * activation_ptr[l * N1 + k];
        }
        z[j * N1 + k] = s;
      }
    return { z_ptr: z };
  },
  tolerance: { atol: 1e-3, rtol: 1e-4 },
});
