// The attention cases' check (f32 and f16): a few random rows of softmax(Q·Kᵀ / √d)·V in float64,
// the last query row of some head always among them, from the inputs as the kernel read them.

/** Z·H heads of N rows of D values each, [Z, H, N, D] contiguous. */
export interface AttentionShape {
  z: number;
  h: number;
  n: number;
  d: number;
  causal: boolean;
}

export function attentionRows(q: ArrayLike<number>, k: ArrayLike<number>, v: ArrayLike<number>, shape: AttentionShape, rows: number) {
  const { z, h, n, d, causal } = shape;
  const indices = new Int32Array(rows * d);
  const expected = new Float64Array(rows * d);
  const scores = new Float64Array(n);
  for (let r = 0; r < rows; r++) {
    const zh = Math.floor(Math.random() * z * h);
    const i = r === 0 ? n - 1 : Math.floor(Math.random() * n);
    const off = zh * n * d;
    const last = causal ? i : n - 1;
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
