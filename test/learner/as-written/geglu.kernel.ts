// GeGLU forward, as LLM kernel libraries write it in Triton (written here from the algorithm):
// c = gelu(a) · b with GELU's tanh approximation, 0.5·a·(1 + tanh(√(2/π)·(a + 0.044715·a³))),
// row by row over a 2-D grid of programs (rows, then blocks of columns), row pointers advanced
// by reassigning the parameters.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

const SQRT_2_OVER_PI = 0.7978845608028654;

export const _geglu_tanh_forward_kernel = kernel(function _geglu_tanh_forward_kernel(
  a: Ptr<f32>, b: Ptr<f32>, c: Ptr<f32>, stride: i32, n_cols: i32, BLOCK_SIZE: constexpr,
) {
  const program_id = tl.programId(0);
  a += program_id * stride;
  b += program_id * stride;
  c += program_id * stride;

  const col_offsets = tl.programId(1) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = col_offsets < n_cols;
  const a_row = tl.load(a + col_offsets, { mask, other: 0 });
  const b_row = tl.load(b + col_offsets, { mask, other: 0 });

  const a_cubed = a_row * a_row * a_row;
  const tanh_arg = SQRT_2_OVER_PI * (a_row + 0.044715 * a_cubed);
  const geglu_a = 0.5 * a_row * (1 + tl.tanh(tanh_arg));
  tl.store(c + col_offsets, geglu_a * b_row, { mask });
});

const ROWS = 6;

export const geglu = defineRun({
  kernel: _geglu_tanh_forward_kernel,
  sizes: [1000, 333],
  constexprs: { BLOCK_SIZE: 256 },
  grid: (n, k) => [ROWS, cdiv(n, k.BLOCK_SIZE)],
  args: (n) => ({ a: randn(ROWS * n), b: randn(ROWS * n), c: empty(ROWS * n), stride: n, n_cols: n }),
  outputs: ["c"],
  reference: ({ a, b }) => ({ c: Array.from(a, (x, i) => 0.5 * x * (1 + Math.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x ** 3))) * b[i]) }),
  tolerance: { atol: 1e-5, rtol: 1e-5 },
});
