// Operations that move elements between block shapes: broadcast, transpose, reductions and the
// block matrix product. A block is a flat row-major Float64Array of its static shape; a scalar
// is a block of one element.

import { numel, type Dtype, type ReduceFn, type Shape } from "../ir/ir";
import { extremumOp, roundTo } from "../ir/arithmetic";

export type Block = Float64Array;

/** Stretches the size-1 axes of `from` to `to` (a lower rank is padded with 1s in front). */
export function broadcastBlock(src: Block, from: Shape, to: Shape): Block | undefined {
  const rank = to.length;
  if (from.length > rank) return undefined;
  const padded = [...Array<number>(rank - from.length).fill(1), ...from];
  // Row-major strides of the source, 0 along every stretched axis.
  const strides = new Array<number>(rank);
  let stride = 1;
  for (let axis = rank - 1; axis >= 0; axis--) {
    if (padded[axis] !== to[axis] && padded[axis] !== 1) return undefined;
    strides[axis] = padded[axis] === 1 ? 0 : stride;
    stride *= padded[axis];
  }
  const out = new Float64Array(numel(to));
  const index = new Array<number>(rank).fill(0);
  let at = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = src[at];
    for (let axis = rank - 1; axis >= 0; axis--) {
      index[axis]++;
      at += strides[axis];
      if (index[axis] < to[axis]) break;
      at -= strides[axis] * to[axis];
      index[axis] = 0;
    }
  }
  return out;
}

/** [rows, cols] -> [cols, rows]. */
export function transposeBlock(src: Block, rows: number, cols: number): Block {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[c * rows + r] = src[r * cols + c];
  }
  return out;
}

/** Reorders the axes of a block of `shape`: axis i of the result is axis dims[i] of the source. */
export function permuteBlock(src: Block, shape: Shape, dims: readonly number[]): Block {
  const to = dims.map((d) => shape[d]);
  const strides = shape.map((_, a) => numel(shape.slice(a + 1)));
  const out = new Float64Array(src.length);
  const index = new Array<number>(to.length).fill(0);
  for (let i = 0; i < out.length; i++) {
    let at = 0;
    for (let k = 0; k < to.length; k++) at += index[k] * strides[dims[k]];
    out[i] = src[at];
    for (let k = to.length - 1; k >= 0; k--) {
      if (++index[k] < to[k]) break;
      index[k] = 0;
    }
  }
  return out;
}

/**
 * Reduces `axis` of a block of `shape`. Sums accumulate in index order, rounded to `dtype` at
 * every step (the GPU adds as a tree, so float sums may differ in the last bits). argmax gives
 * (argmin) the i32 index of the first maximum (minimum).
 */
export function reduceBlock(src: Block, shape: Shape, axis: number, fn: ReduceFn, dtype: Dtype): Block | undefined {
  const outer = numel(shape.slice(0, axis));
  const length = shape[axis];
  const inner = numel(shape.slice(axis + 1));
  const out = new Float64Array(outer * inner);
  const fold = REDUCE_CPU[fn](dtype);
  if (!fold) return undefined;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const base = o * length * inner + i;
      let best = src[base];
      let bestIndex = 0;
      for (let k = 1; k < length; k++) {
        const x = src[base + k * inner];
        if (fn === "argmax" || fn === "argmin") {
          // Strictly greater (less) keeps the first extreme; a NaN so far gives way to any number.
          if ((fn === "argmax" ? x > best : x < best) || (Number.isNaN(best) && !Number.isNaN(x))) {
            best = x;
            bestIndex = k;
          }
        } else {
          best = fold(best, x);
        }
      }
      out[o * inner + i] = fn === "argmax" || fn === "argmin" ? bestIndex : best;
    }
  }
  return out;
}

/** Each reduction's step: the running result and the next element (argmax keeps its index in reduceBlock). */
export const REDUCE_CPU: Record<ReduceFn, (dtype: Dtype) => ((acc: number, x: number) => number) | undefined> = {
  sum: (dtype) => {
    const round = roundTo(dtype);
    return (acc, x) => round(acc + x);
  },
  max: (dtype) => extremumOp("maximum", dtype),
  min: (dtype) => extremumOp("minimum", dtype),
  argmax: () => (acc) => acc,
  argmin: () => (acc) => acc,
  xorSum: (dtype) => (dtype === "i32" ? (acc, x) => acc ^ x : dtype === "u32" ? (acc, x) => (acc ^ x) >>> 0 : undefined),
};

/**
 * [M,K] x [K,N] (+ acc [M,N]) -> [M,N]: each output accumulates its K products in k order,
 * one rounding to `dtype` per multiply-add.
 */
export function dotBlock(a: Block, b: Block, acc: Block | undefined, m: number, k: number, n: number, dtype: Dtype): Block {
  const round = roundTo(dtype);
  const integer = dtype === "i32" || dtype === "u32";
  const out = new Float64Array(m * n);
  for (let row = 0; row < m; row++) {
    for (let col = 0; col < n; col++) {
      let sum = acc ? acc[row * n + col] : 0;
      for (let i = 0; i < k; i++) {
        const x = a[row * k + i];
        const y = b[i * n + col];
        sum = round(sum + (integer ? Math.imul(x, y) : x * y));
      }
      out[row * n + col] = sum;
    }
  }
  return out;
}
