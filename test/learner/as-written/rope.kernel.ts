// Rotary position embedding (RoPE, the "rotate half" form), as LLM kernel libraries write it in
// Triton (written here from the algorithm): one program per token, all heads at once as a
// [heads, head_dim / 2] block; each head's two halves (x1, x2) become
//   (x1·cos − x2·sin, x2·cos + x1·sin)
// with cos/sin of the token's position. q and k are rotated in place, their pointers advanced by
// reassigning the parameters; the two halves are read with tl.split of a [heads, half, 2] view
// and written back with tl.join, as the interleaved form of the same rotation is.
import { kernel, tl, defineRun, randn, rand, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const _triton_rope = kernel(function _triton_rope(
  q_ptr: Ptr<f32>, q_row_stride: i32, k_ptr: Ptr<f32>, k_row_stride: i32, cos: Ptr<f32>, sin: Ptr<f32>,
  n_qh: i32, n_kh: i32, hd: constexpr, pad_n_qh: constexpr, pad_n_kh: constexpr, pad_hd: constexpr,
) {
  const pid = tl.programId(0);
  q_ptr = q_ptr + pid * q_row_stride;
  k_ptr = k_ptr + pid * k_row_stride;
  cos = cos + pid * (hd / 2);
  sin = sin + pid * (hd / 2);

  const half = tl.arange(0, pad_hd / 2);
  const cos_row = tl.expandDims(tl.load(cos + half, half < hd / 2, 0), 0);
  const sin_row = tl.expandDims(tl.load(sin + half, half < hd / 2, 0), 0);

  // [heads, half] offsets of the first halves; the second halves are hd / 2 further.
  const q_offsets = tl.expandDims(tl.arange(0, pad_n_qh), 1) * hd + tl.expandDims(half, 0);
  const k_offsets = tl.expandDims(tl.arange(0, pad_n_kh), 1) * hd + tl.expandDims(half, 0);
  const q_mask = tl.expandDims(tl.arange(0, pad_n_qh), 1) < n_qh && tl.expandDims(half, 0) < hd / 2;
  const k_mask = tl.expandDims(tl.arange(0, pad_n_kh), 1) < n_kh && tl.expandDims(half, 0) < hd / 2;

  // Both halves as one [heads, half, 2] block: tl.join, then tl.split back.
  const q_both = tl.join(tl.load(q_ptr + q_offsets, q_mask, 0), tl.load(q_ptr + q_offsets + hd / 2, q_mask, 0));
  const [q1, q2] = tl.split(q_both);
  tl.store(q_ptr + q_offsets, q1 * cos_row - q2 * sin_row, { mask: q_mask });
  tl.store(q_ptr + q_offsets + hd / 2, q2 * cos_row + q1 * sin_row, { mask: q_mask });

  const k1 = tl.load(k_ptr + k_offsets, { mask: k_mask, other: 0 });
  const k2 = tl.load(k_ptr + k_offsets + hd / 2, { mask: k_mask, other: 0 });
  tl.store(k_ptr + k_offsets, k1 * cos_row - k2 * sin_row, { mask: k_mask });
  tl.store(k_ptr + k_offsets + hd / 2, k2 * cos_row + k1 * sin_row, { mask: k_mask });
});

const QH = 6, KH = 2, HD = 32;

/** Size: tokens. */
export const rope = defineRun({
  kernel: _triton_rope,
  sizes: [37, 5],
  constexprs: { hd: HD, pad_n_qh: 8, pad_n_kh: 2, pad_hd: HD },
  grid: (n) => [n],
  args: (n) => {
    const theta = (t: number, i: number) => t / 10000 ** ((2 * i) / HD);
    return {
      q_ptr: randn(n * QH * HD), q_row_stride: QH * HD, k_ptr: randn(n * KH * HD), k_row_stride: KH * HD,
      cos: Float32Array.from({ length: n * (HD / 2) }, (_, e) => Math.cos(theta(Math.floor(e / (HD / 2)), e % (HD / 2)))),
      sin: Float32Array.from({ length: n * (HD / 2) }, (_, e) => Math.sin(theta(Math.floor(e / (HD / 2)), e % (HD / 2)))),
      n_qh: QH, n_kh: KH,
    };
  },
  outputs: ["q_ptr", "k_ptr"],
  reference: ({ q_ptr, k_ptr, cos, sin }, n) => {
    const rotate = (x: ArrayLike<number>, heads: number) => {
      const out = Float64Array.from(x);
      for (let t = 0; t < n; t++)
        for (let h = 0; h < heads; h++)
          for (let i = 0; i < HD / 2; i++) {
            const base = (t * heads + h) * HD;
            const [x1, x2, c, s] = [x[base + i], x[base + i + HD / 2], cos[t * (HD / 2) + i], sin[t * (HD / 2) + i]];
            out[base + i] = x1 * c - x2 * s;
            out[base + i + HD / 2] = x2 * c + x1 * s;
          }
      return out;
    };
    return { q_ptr: rotate(q_ptr, QH), k_ptr: rotate(k_ptr, KH) };
  },
  tolerance: { atol: 1e-5, rtol: 1e-5 },
});
