// A replicated block's tl.atomic* (atomics.ts): its old values, where something reads them, are
// handed to every invocation through a workgroup array of its own. Apart from atomics.ts so the
// plan (array-plan.ts) asks for that array the way the emitter does.

import type { KernelIR, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, valuesOfStmt } from "../ir/walk";
import type { ArrayFacts } from "./emitter";

/**
 * The array a replicated block's old values are handed out through, when something reads them
 * (its own: nobody has read it yet). Also the plan's account of it (array-plan.ts).
 */
export function oldValuesArray(ctx: ArrayFacts, ir: KernelIR, v: Value & { op: "atomic" }): string | undefined {
  const layout = ctx.layout(v.type);
  if (!layout.replicated || !usedValues(ir).has(v.id)) return undefined;
  return ctx.scratch(ctx.fresh("atomic"), ctx.dtype(v.type), layout.numel);
}

const USED = new WeakMap<KernelIR, Set<number>>();

/** The ids of the values some statement or value reads (an atomic whose old values nobody reads needs no staging). */
function usedValues(ir: KernelIR): Set<number> {
  let used = USED.get(ir);
  if (used) return used;
  used = new Set();
  const ids = used;
  forEachStmt(ir.body, (s) => {
    const read = s.kind === "let" ? operandsOf(s.value) : valuesOfStmt(s);
    for (const value of read) ids.add(value.id);
  });
  USED.set(ir, used);
  return used;
}
