// @ts-nocheck — deliberately outside Kernel Lab's language (and its types): `kernel-lab check` must name the construct.
// Triton-Puzzles, Puzzle 8 "Long Softmax" (github.com/srush/Triton-Puzzles) as the puzzle suggests
// writing it: exp(x) = exp2(log2(e) · x). Construct: tl.exp2 (Triton tl.exp2 / tl.math.exp2).
import { kernel, tl, defineRun, rand, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const softmax_kernel = kernel(function softmax_kernel(x_ptr: Ptr<f32>, z_ptr: Ptr<f32>, N0: i32, N1: i32, T: i32, B0: constexpr, B1: constexpr) {
  const pid_0 = tl.programId(0);
  const log2_e = 1.44269504;
  let m = -Infinity;
  let l = 0.0;
  for (let j = 0; j < T; j += B1) {
    const off = j + tl.arange(0, B1);
    const x = tl.load(x_ptr + pid_0 * T + off, off < T, -Infinity);
    const m_new = tl.maximum(m, tl.max(x, 0));
    l = l * tl.exp2(log2_e * (m - m_new)) + tl.sum(tl.exp2(log2_e * (x - m_new)), 0);
    m = m_new;
  }
  for (let j = 0; j < T; j += B1) {
    const off = j + tl.arange(0, B1);
    const x = tl.load(x_ptr + pid_0 * T + off, off < T, -Infinity);
    tl.store(z_ptr + pid_0 * T + off, tl.exp2(log2_e * (x - m)) / l, off < T);
  }
});

export const longSoftmaxExp2 = defineRun({
  kernel: softmax_kernel, sizes: [200], constexprs: { B0: 1, B1: 32 }, grid: () => [4],
  args: (t) => ({ x_ptr: randn(4 * t), z_ptr: empty(4 * t), N0: 4, N1: 32, T: t }), outputs: ["z_ptr"],
  reference: ({ x_ptr }) => ({ z_ptr: x_ptr }),
});
