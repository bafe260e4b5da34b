// SwiGLU forward, as LLM kernel libraries write it in Triton (written here from the algorithm):
// c = silu(a) · b, row by row, the row pointers advanced by reassigning the parameters; silu is
// a device function computed in f32 (`a.to(tl.float32)`) and the product cast back.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

const silu = kernel(function silu(x) {
  return x * tl.sigmoid(x);
});

export const _swiglu_forward_kernel = kernel(function _swiglu_forward_kernel(
  a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, c_ptr: Ptr<f32>, stride: i32, n_cols: i32, BLOCK_SIZE: constexpr,
) {
  const program_id = tl.programId(0);
  a_ptr += program_id * stride;
  b_ptr += program_id * stride;
  c_ptr += program_id * stride;

  const col_offsets = tl.arange(0, BLOCK_SIZE);
  const mask = col_offsets < n_cols;
  const a_row = tl.cast(tl.load(a_ptr + col_offsets, { mask, other: 0 }), "f32");
  const b_row = tl.load(b_ptr + col_offsets, { mask, other: 0 });
  const c_row = tl.cast(silu(a_row), "f32") * b_row;
  tl.store(c_ptr + col_offsets, c_row, { mask });
});

const ROWS = 9;

export const swiglu = defineRun({
  kernel: _swiglu_forward_kernel,
  sizes: [700, 1025],
  constexprs: { BLOCK_SIZE: 2048 },
  grid: () => [ROWS],
  args: (n) => ({ a_ptr: randn(ROWS * n), b_ptr: randn(ROWS * n), c_ptr: empty(ROWS * n), stride: n, n_cols: n }),
  outputs: ["c_ptr"],
  reference: ({ a_ptr, b_ptr }) => ({ c_ptr: Array.from(a_ptr, (a, i) => (a / (1 + Math.exp(-a))) * b_ptr[i]) }),
  tolerance: { atol: 1e-5, rtol: 1e-5 },
});
