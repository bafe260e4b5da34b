// tl.rand/randn/randint/randint4x on the CPU (IR op `random`): Philox 4×32-10 from ir/philox.ts,
// bit for bit what codegen/random.ts computes on the GPU.

import type { Value } from "../ir/ir";
import { normalFromU32Pair, randint4x, uniformFromU32 } from "../ir/philox";
import type { Block } from "./block-ops";
import type { Machine } from "./machine";

export function randomBlock(m: Machine, v: Extract<Value, { op: "random" }>, n: number): Block {
  // An i32 seed holds its sign (randint4x sign-extends it); a u32 seed is non-negative.
  const seed = m.scalar(v.seed, v.span);
  const offsets = m.sized(m.value(v.offset), n, v.span);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const words = randint4x(seed, offsets[i]);
    if (v.kind === "uniform") out[i] = uniformFromU32(words[0]);
    else if (v.kind === "normal") out[i] = normalFromU32Pair(words[0], words[1]);
    else out[i] = words[v.word];
  }
  return out;
}
