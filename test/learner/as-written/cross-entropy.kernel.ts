// Cross-entropy loss forward with its gradient, as LLM kernel libraries write it in Triton
// (written here from the algorithm): one program per row of logits; the row's label is loaded,
// a row whose label is ignore_index writes zeros and returns early; the row pointers advance by
// reassigning the parameters; an online softmax over blocks of columns (running max m, running
// sum d) gives the log-sum-exp; the loss is lse − x[label], averaged over the rows not ignored;
// the gradient (softmax − onehot) / n_non_ignore is written in place of the logits.
import { kernel, tl, defineRun, randn, empty } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const liger_cross_entropy_kernel = kernel(function liger_cross_entropy_kernel(
  X_ptr: Ptr<f32>, X_stride: i32, Y_ptr: Ptr<i32>, loss_ptr: Ptr<f32>, n_cols: i32, n_non_ignore: i32,
  ignore_index: i32, BLOCK_SIZE: constexpr,
) {
  const program_id = tl.programId(0);
  Y_ptr += program_id;
  const y = tl.load(Y_ptr);

  X_ptr += program_id * X_stride;
  loss_ptr += program_id;

  if (y === ignore_index) {
    for (let i = 0; i < n_cols; i += BLOCK_SIZE) {
      const X_offsets = i + tl.arange(0, BLOCK_SIZE);
      tl.store(X_ptr + X_offsets, 0.0, { mask: X_offsets < n_cols });
    }
    tl.store(loss_ptr, 0.0);
    return;
  }

  // Online softmax: the running maximum m and the running sum d of exp(x - m).
  let m = -Infinity;
  let d = 0.0;
  const ori_X_y = tl.load(X_ptr + y);
  for (let i = 0; i < n_cols; i += BLOCK_SIZE) {
    const X_offsets = i + tl.arange(0, BLOCK_SIZE);
    const X_block = tl.load(X_ptr + X_offsets, { mask: X_offsets < n_cols, other: -Infinity });
    const block_max = tl.max(X_block);
    const m_new = tl.maximum(m, block_max);
    d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new));
    m = m_new;
  }

  // The gradient, in place: (softmax(x) - onehot(y)) / n_non_ignore.
  for (let i = 0; i < n_cols; i += BLOCK_SIZE) {
    const X_offsets = i + tl.arange(0, BLOCK_SIZE);
    const X_block = tl.load(X_ptr + X_offsets, { mask: X_offsets < n_cols, other: -Infinity });
    const grad = (tl.exp(X_block - m) / d - tl.where(X_offsets === y, 1.0, 0.0)) / n_non_ignore;
    tl.store(X_ptr + X_offsets, grad, { mask: X_offsets < n_cols });
  }

  const loss = (m + tl.log(d) - ori_X_y) / n_non_ignore;
  tl.store(loss_ptr, loss);
});

const ROWS = 11;
const IGNORE = -100;

/** Size: the vocabulary (columns); a third of the rows ignored at random. */
export const crossEntropy = defineRun({
  kernel: liger_cross_entropy_kernel,
  sizes: [1000, 4099],
  constexprs: { BLOCK_SIZE: 512 },
  grid: () => [ROWS],
  args: (n) => {
    const labels = Int32Array.from({ length: ROWS }, (_, r) => (r % 3 === 1 ? IGNORE : Math.floor(Math.random() * n)));
    return { X_ptr: randn(ROWS * n), X_stride: n, Y_ptr: labels, loss_ptr: empty(ROWS), n_cols: n, n_non_ignore: labels.filter((l) => l !== IGNORE).length, ignore_index: IGNORE };
  },
  outputs: ["X_ptr", "loss_ptr"],
  reference: ({ X_ptr, Y_ptr, n_non_ignore }, n) => {
    const grad = new Float64Array(ROWS * n);
    const loss = new Float64Array(ROWS);
    for (let r = 0; r < ROWS; r++) {
      if (Y_ptr[r] === IGNORE) continue;
      const row = X_ptr.subarray(r * n, (r + 1) * n);
      const m = row.reduce((a, b) => Math.max(a, b), -Infinity);
      const d = row.reduce((s, x) => s + Math.exp(x - m), 0);
      row.forEach((x, c) => (grad[r * n + c] = (Math.exp(x - m) / d - (c === Y_ptr[r] ? 1 : 0)) / n_non_ignore));
      loss[r] = (m + Math.log(d) - row[Y_ptr[r]]) / n_non_ignore;
    }
    return { X_ptr: grad, loss_ptr: loss };
  },
  tolerance: { atol: 1e-6, rtol: 1e-4 },
});
