// tl.rand/randn/randint/randint4x/philox on the CPU (IR op `random`): Philox 4×32 from
// ir/philox.ts, bit for bit what codegen/random.ts computes on the GPU.

import type { Value } from "../ir/ir";
import { normalFromU32Pair, philox4x32, philoxKey, PHILOX_ROUNDS, uniformFromU32 } from "../ir/philox";
import type { Block } from "./block-ops";
import type { Machine } from "./machine";

export function randomBlock(m: Machine, v: Extract<Value, { op: "random" }>, n: number): Block {
  // An i32 seed holds its sign (the key sign-extends it); a u32 seed is non-negative.
  const key = philoxKey(m.scalar(v.seed, v.span));
  const offsets = m.sized(m.value(v.offset), n, v.span);
  const counters = v.counters?.map((c) => m.sized(m.value(c), n, v.span));
  const rounds = v.rounds ?? PHILOX_ROUNDS;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const words = philox4x32([offsets[i], counters ? counters[0][i] : 0, counters ? counters[1][i] : 0, counters ? counters[2][i] : 0], key, rounds);
    if (v.kind === "uniform") out[i] = uniformFromU32(words[0]);
    else if (v.kind === "normal") out[i] = normalFromU32Pair(words[0], words[1]);
    else out[i] = words[v.word];
  }
  return out;
}
