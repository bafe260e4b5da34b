// Operations that pick elements of blocks by position on the CPU: tl.cat/join/interleave
// (concat), tl.split (slice), tl.flip, tl.gather, tl.histogram and tl.sort. A block is flat and
// row-major; an axis's lines are addressed as (outer, k, inner): (o * length + k) * inner + i.

import { numel, type Dtype, type Shape, type Value } from "../ir/ir";
import type { Block } from "./block-ops";
import type { Machine } from "./machine";
import { dtypeOf } from "./machine";

/** [outer, length, inner] of `axis` in `shape`. */
function lines(shape: Shape, axis: number): [number, number, number] {
  return [numel(shape.slice(0, axis)), shape[axis], numel(shape.slice(axis + 1))];
}

/** Calls `f(o, k, i, e)` for every element e of a block of `shape`, seen along `axis`. */
function eachAlong(shape: Shape, axis: number, f: (o: number, k: number, i: number, e: number) => void): void {
  const [outer, length, inner] = lines(shape, axis);
  for (let o = 0; o < outer; o++) for (let k = 0; k < length; k++) for (let i = 0; i < inner; i++) f(o, k, i, (o * length + k) * inner + i);
}

export function concatBlock(m: Machine, v: Value & { op: "concat" }): Block {
  const [a, b] = v.values.map((x) => m.value(x));
  const la = v.values[0].type.shape[v.axis];
  const lb = v.values[1].type.shape[v.axis];
  const out = new Float64Array(numel(v.type.shape));
  eachAlong(v.type.shape, v.axis, (o, k, i, e) => {
    const inner = numel(v.type.shape.slice(v.axis + 1));
    out[e] = k < la ? a[(o * la + k) * inner + i] : b[(o * lb + k - la) * inner + i];
  });
  return out;
}

export function sliceBlock(m: Machine, v: Value & { op: "slice" }): Block {
  const src = m.value(v.value);
  const length = v.value.type.shape[v.axis];
  const out = new Float64Array(numel(v.type.shape));
  eachAlong(v.type.shape, v.axis, (o, k, i, e) => {
    const inner = numel(v.type.shape.slice(v.axis + 1));
    out[e] = src[(o * length + v.start + k) * inner + i];
  });
  return out;
}

export function flipBlock(m: Machine, v: Value & { op: "flip" }): Block {
  const src = m.value(v.value);
  const [, length, inner] = lines(v.type.shape, v.axis);
  const out = new Float64Array(src.length);
  eachAlong(v.type.shape, v.axis, (o, k, i, e) => (out[e] = src[(o * length + length - 1 - k) * inner + i]));
  return out;
}

export function gatherBlock(m: Machine, v: Value & { op: "gather" }): Block {
  const src = m.value(v.value);
  const index = m.value(v.index);
  const length = v.value.type.shape[v.axis];
  const out = new Float64Array(numel(v.type.shape));
  eachAlong(v.type.shape, v.axis, (o, _k, i, e) => {
    const inner = numel(v.type.shape.slice(v.axis + 1));
    // An index outside the axis is clamped to it (Triton leaves it undefined), as the WGSL does.
    const at = Math.min(Math.max(Math.trunc(index[e]), 0), length - 1);
    out[e] = src[(o * length + at) * inner + i];
  });
  return out;
}

export function histogramBlock(m: Machine, v: Value & { op: "histogram" }): Block {
  const src = m.value(v.value);
  const mask = v.mask ? m.value(v.mask) : undefined;
  const out = new Float64Array(v.bins);
  m.charge(src.length, v.span);
  for (let e = 0; e < src.length; e++) {
    if (mask && mask[e] === 0) continue;
    const x = src[e];
    if (x >= 0 && x < v.bins) out[x]++;
  }
  return out;
}

const view = new DataView(new ArrayBuffer(4));

/**
 * The order tl.sort sorts by, as a number: floats by IEEE totalOrder of their bits (what the
 * WGSL's kl_sort_key computes), integers as themselves.
 */
export function sortKey(dtype: Dtype): (x: number) => number {
  if (dtype === "f32" || dtype === "f16" || dtype === "bf16") {
    return (x) => {
      view.setFloat32(0, x);
      const bits = view.getUint32(0);
      return bits >>> 31 ? ~bits >>> 0 : (bits | 0x80000000) >>> 0;
    };
  }
  return (x) => x;
}

export function sortBlock(m: Machine, v: Value & { op: "sort" }): Block {
  const src = m.value(v.value);
  const shape = v.type.shape;
  const [outer, length, inner] = lines(shape, v.axis);
  const key = sortKey(dtypeOf(v.value.type));
  m.charge(src.length * Math.max(1, Math.log2(length)), v.span);
  const out = new Float64Array(src.length);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (k: number) => (o * length + k) * inner + i;
      const order = Array.from({ length }, (_, k) => k);
      // Stable: equal keys keep their order whichever way the line is sorted.
      order.sort((p, q) => (v.descending ? key(src[at(q)]) - key(src[at(p)]) : key(src[at(p)]) - key(src[at(q)])) || p - q);
      order.forEach((k, rank) => (out[at(rank)] = src[at(k)]));
    }
  }
  return out;
}
