// The attention cases' check (f32 and f16): a few random rows of softmax(Q·Kᵀ / √d)·V in float64,
// the last query row of some head always among them, from the inputs as the kernel read them.

import { roundF16 } from "../src/ir/f16";

/** Z·H heads of N rows of D values each, [Z, H, N, D] contiguous. */
export interface AttentionShape {
  z: number;
  h: number;
  n: number;
  d: number;
  causal: boolean;
}

/** Check row r's head (its offset), query row (the last of some head for r = 0) and last key. */
function pickRow(shape: AttentionShape, r: number): { off: number; i: number; last: number } {
  const { z, h, n, d, causal } = shape;
  const zh = Math.floor(Math.random() * z * h);
  const i = r === 0 ? n - 1 : Math.floor(Math.random() * n);
  return { off: zh * n * d, i, last: causal ? i : n - 1 };
}

export function attentionRows(q: ArrayLike<number>, k: ArrayLike<number>, v: ArrayLike<number>, shape: AttentionShape, rows: number) {
  const { n, d } = shape;
  const indices = new Int32Array(rows * d);
  const expected = new Float64Array(rows * d);
  const scores = new Float64Array(n);
  for (let r = 0; r < rows; r++) {
    const { off, i, last } = pickRow(shape, r);
    let max = -Infinity;
    for (let j = 0; j <= last; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[off + i * d + c] * k[off + j * d + c];
      scores[j] = dot / Math.sqrt(d);
      max = Math.max(max, scores[j]);
    }
    let sum = 0;
    for (let j = 0; j <= last; j++) sum += (scores[j] = Math.exp(scores[j] - max));
    for (let c = 0; c < d; c++) {
      let acc = 0;
      for (let j = 0; j <= last; j++) acc += scores[j] * v[off + j * d + c];
      indices[r * d + c] = off + i * d + c;
      expected[r * d + c] = acc / sum;
    }
  }
  return [{ output: "Out", indices, expected }];
}

/**
 * The check of bench/kernels/attention-f16-no-softmax.kernel.ts (NOTES §42), the attention with its
 * softmax taken out: a few random rows of r_i · Σ_j f16(q_i · k_j) · v_j in float64, with
 * r_i = 1 / max_d |Σ_j f16(q_i · k_j) · v_jd| (causal: the keys up to the query's own). The scores
 * are rounded to halves as the kernel rounds P (`roundF16`); the kernel's scores are f32 sums, so a
 * score may round to the neighbouring half now and then: 2^-11 of one term of 4096.
 */
export function noSoftmaxRows(q: ArrayLike<number>, k: ArrayLike<number>, v: ArrayLike<number>, shape: AttentionShape, rows: number) {
  const { n, d } = shape;
  const indices = new Int32Array(rows * d);
  const expected = new Float64Array(rows * d);
  const p = new Float64Array(n);
  const acc = new Float64Array(d);
  for (let r = 0; r < rows; r++) {
    const { off, i, last } = pickRow(shape, r);
    for (let j = 0; j <= last; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[off + i * d + c] * k[off + j * d + c];
      p[j] = roundF16(dot);
    }
    let max = 0;
    for (let c = 0; c < d; c++) {
      let sum = 0;
      for (let j = 0; j <= last; j++) sum += p[j] * v[off + j * d + c];
      acc[c] = sum;
      max = Math.max(max, Math.abs(sum));
    }
    for (let c = 0; c < d; c++) {
      indices[r * d + c] = off + i * d + c;
      expected[r * d + c] = acc[c] / max;
    }
  }
  return [{ output: "Out", indices, expected }];
}
