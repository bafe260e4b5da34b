// Generalised Jensen–Shannon divergence forward with its gradient, as Liger-Kernel writes it in
// Triton (linkedin/Liger-Kernel, src/liger_kernel/ops/jsd.py, `_jsd_kernel`; written here from
// the algorithm). The inputs are log-probabilities, X = log Q (student) and Y = log P (teacher);
// per element, with M = β·P + (1 − β)·Q,
//   loss = β·P·Y + (1 − β)·Q·X − M·log M,   dX = (1 − β)·Q·(X − log M)
// both divided by the number of rows not ignored. β is a *float* constexpr: `beta == 0.0`
// (forward KL, loss = P·(Y − X)) and `beta == 1.0` (reverse KL, loss = Q·(X − Y)) are branches
// taken at compile time. HAS_LABEL and ignore_index are constexprs too: a row whose label is
// ignore_index writes zeros and returns early. The row pointers advance by reassigning the
// parameters; masked-off lanes load −inf; exp(x − max)·exp(max) compensates the shift as Liger does.
// Liger widens the program id to int64 (`tl.program_id(0).to(tl.int64)`); WGSL has no 64-bit
// integers, so it stays an i32 here.
import { kernel, tl, defineRun, randn, empty } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const _jsd_kernel = kernel(function _jsd_kernel(
  X_ptr: Ptr<f32>, X_stride: i32, Y_ptr: Ptr<f32>, Y_stride: i32, loss_ptr: Ptr<f32>, loss_stride: i32,
  dX_ptr: Ptr<f32>, dX_stride: i32, label_ptr: Ptr<i32>, beta: constexpr, n_non_ignore: i32,
  ignore_index: constexpr, n_cols: i32, BLOCK_SIZE: constexpr, HAS_LABEL: constexpr,
) {
  const pid = tl.programId(0);
  X_ptr += pid * X_stride;
  dX_ptr += pid * dX_stride;
  Y_ptr += pid * Y_stride;
  loss_ptr += pid * loss_stride;
  label_ptr += pid;

  if (HAS_LABEL) {
    const label = tl.load(label_ptr);
    if (label == ignore_index) {
      for (let i = 0; i < n_cols; i += BLOCK_SIZE) {
        const offsets = i + tl.arange(0, BLOCK_SIZE);
        const mask = offsets < n_cols;
        tl.store(loss_ptr + offsets, 0.0, { mask });
        tl.store(dX_ptr + offsets, 0.0, { mask });
      }
      return;
    }
  }

  for (let i = 0; i < n_cols; i += BLOCK_SIZE) {
    const offsets = i + tl.arange(0, BLOCK_SIZE);
    const mask = offsets < n_cols;
    const X = tl.cast(tl.load(X_ptr + offsets, { mask, other: -Infinity }), "f32");
    const Y = tl.cast(tl.load(Y_ptr + offsets, { mask, other: -Infinity }), "f32");

    let loss;
    let dX;
    if (beta == 0.0) {
      // Forward KL.
      const Y_max = tl.max(Y, { axis: 0 });
      const Y_shifted = Y - Y_max;
      const Y_prob = tl.exp(Y_shifted) * tl.exp(Y_max);
      loss = Y_prob * (Y - X);
      dX = -Y_prob;
    } else if (beta == 1.0) {
      // Reverse KL.
      const X_max = tl.max(X, { axis: 0 });
      const X_shifted = X - X_max;
      const X_prob = tl.exp(X_shifted) * tl.exp(X_max);
      loss = X_prob * (X - Y);
      dX = loss + X_prob;
    } else {
      const max_val = tl.maximum(tl.max(X, { axis: 0 }), tl.max(Y, { axis: 0 }));
      const X_shifted = X - max_val;
      const Y_shifted = Y - max_val;
      const exp_max = tl.exp(max_val);
      const Q = tl.exp(X_shifted) * exp_max;
      const P = tl.exp(Y_shifted) * exp_max;
      const beta_P = beta * P;
      const one_minus_beta_Q = (1 - beta) * Q;
      const M = beta_P + one_minus_beta_Q;
      const log_M = tl.log(M);
      loss = beta_P * Y + one_minus_beta_Q * X - M * log_M;
      dX = one_minus_beta_Q * (X - log_M);
    }

    const scale = 1.0 / n_non_ignore;
    loss = loss * scale;
    dX = dX * scale;

    tl.store(loss_ptr + offsets, loss, { mask });
    tl.store(dX_ptr + offsets, dX, { mask });
  }
});

const ROWS = 9;
const IGNORE = -100;

/** Log-probabilities of a row of `n` classes: log_softmax of standard normal logits. */
function logSoftmaxRows(n: number): Float32Array {
  const out = randn(ROWS * n);
  for (let r = 0; r < ROWS; r++) {
    const row = out.subarray(r * n, (r + 1) * n);
    const m = row.reduce((a, b) => Math.max(a, b), -Infinity);
    const lse = m + Math.log(row.reduce((s, x) => s + Math.exp(x - m), 0));
    row.forEach((x, c) => (row[c] = x - lse));
  }
  return out;
}

/** A JSD run for one β (the constexprs are stated in each run, where `kernel-lab check` reads them). */
function jsdRun(beta: number) {
  return {
    sizes: [500, 1337],
    grid: () => [ROWS],
    args: (n: number) => {
      // Every third row ignored; the others labelled at random.
      const labels = Int32Array.from({ length: ROWS }, (_, r) => (r % 3 === 2 ? IGNORE : Math.floor(Math.random() * n)));
      return {
        X_ptr: logSoftmaxRows(n), X_stride: n, Y_ptr: logSoftmaxRows(n), Y_stride: n, loss_ptr: empty(ROWS * n), loss_stride: n,
        dX_ptr: empty(ROWS * n), dX_stride: n, label_ptr: labels, n_non_ignore: labels.filter((l) => l !== IGNORE).length, n_cols: n,
      };
    },
    outputs: ["loss_ptr", "dX_ptr"] as ("loss_ptr" | "dX_ptr")[],
    reference: ({ X_ptr, Y_ptr, label_ptr, n_non_ignore }: { X_ptr: Float32Array; Y_ptr: Float32Array; label_ptr: Int32Array; n_non_ignore: number }, n: number) => {
      const loss = new Float64Array(ROWS * n);
      const dX = new Float64Array(ROWS * n);
      for (let i = 0; i < ROWS * n; i++) {
        if (label_ptr[Math.floor(i / n)] === IGNORE) continue;
        const [x, y] = [X_ptr[i], Y_ptr[i]];
        const [q, p] = [Math.exp(x), Math.exp(y)];
        const m = beta * p + (1 - beta) * q;
        // β = 0 is forward KL, β = 1 reverse KL, as Liger special-cases them.
        const [l, d] = beta === 0 ? [p * (y - x), -p] : beta === 1 ? [q * (x - y), q * (x - y) + q] : [beta * p * y + (1 - beta) * q * x - m * Math.log(m), (1 - beta) * q * (x - Math.log(m))];
        loss[i] = l / n_non_ignore;
        dX[i] = d / n_non_ignore;
      }
      return { loss_ptr: loss, dX_ptr: dX };
    },
    tolerance: { atol: 1e-8, rtol: 1e-4 },
  };
}

/** The general form (β = 0.5), forward KL (β = 0) and reverse KL (β = 1): one compiled kernel each. */
export const jsd = defineRun({ ...jsdRun(0.5), kernel: _jsd_kernel, constexprs: { beta: 0.5, ignore_index: IGNORE, BLOCK_SIZE: 256, HAS_LABEL: 1 } });
export const forwardKl = defineRun({ ...jsdRun(0), kernel: _jsd_kernel, constexprs: { beta: 0, ignore_index: IGNORE, BLOCK_SIZE: 256, HAS_LABEL: 1 } });
export const reverseKl = defineRun({ ...jsdRun(1), kernel: _jsd_kernel, constexprs: { beta: 1, ignore_index: IGNORE, BLOCK_SIZE: 256, HAS_LABEL: 1 } });
