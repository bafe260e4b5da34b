// Element-wise application of a scalar function over blocks of equal size.

import type { ScalarFn1, ScalarFn2, ScalarFn3 } from "../ir/arithmetic";
import type { Block } from "./block-ops";

export function map1(x: Block, fn: ScalarFn1, n: number): Block {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn(x[i]);
  return out;
}

export function map2(x: Block, y: Block, fn: ScalarFn2, n: number): Block {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn(x[i], y[i]);
  return out;
}

export function map3(x: Block, y: Block, z: Block, fn: ScalarFn3, n: number): Block {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn(x[i], y[i], z[i]);
  return out;
}
