// Which buffers a launch is checked for races between programs (KL3104, KL3105), shared by the
// instrumented variant (codegen/instrument.ts) and the interpreter's recorder (harness/debug/races.ts),
// so the GPU and --cpu check the same accesses.
//   - A buffer some tl.atomic* updates is not checked: atomics are how programs share it.
//   - A kernel with tl.atomicCas or tl.atomicXchg is not checked at all: those build locks
//     (tutorial 05's spin lock), and the stores a lock guards look like a race to a check that
//     does not follow the lock.

import type { KernelIR } from "./ir";
import { forEachValue } from "./walk";

export interface RaceChecked {
  /** Written parameters whose tl.store lanes are checked against other programs' stores. */
  stores: ReadonlySet<string>;
  /** Of those, the ones the kernel also loads: each load is checked against other programs' stores. */
  loads: ReadonlySet<string>;
}

export function raceChecked(ir: KernelIR): RaceChecked {
  const atomic = new Set<string>();
  const loaded = new Set<string>();
  let locks = false;
  forEachValue(ir.body, (v) => {
    if (v.op === "atomic" && v.ptr.type.kind === "pointer") {
      atomic.add(v.ptr.type.param);
      if (v.fn === "cas" || v.fn === "xchg") locks = true;
    }
    if (v.op === "load" && v.ptr.type.kind === "pointer") loaded.add(v.ptr.type.param);
  });
  if (locks) return { stores: new Set(), loads: new Set() };
  const stores = new Set([...ir.writtenParams].filter((p) => !atomic.has(p)));
  return { stores, loads: new Set([...stores].filter((p) => loaded.has(p))) };
}
