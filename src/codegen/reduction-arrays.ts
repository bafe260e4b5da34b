// The workgroup arrays of reductions' partials (reductions.ts): a scalar reduction's tree or its subgroups'
// partials, a row reduction's [M, Tc] partials. Outside loops a row reduction's and the subgroups' partials
// get arrays of their own, which nobody has read yet, so no barrier goes before their writes; where the plan
// shares them (CodegenOptions.shareReductionArrays, a fallback when workgroup memory runs out) every one is
// the staging array, sized to its largest use, with that barrier (bench/NOTES.md §81).

import type { Value } from "../ir/ir";
import type { ArrayFacts } from "./emitter";

/**
 * The slot of a reduction's partials: the staging array's where the plan shares it (CodegenOptions.shareReductionArrays:
 * a barrier first, as in loops), the reductions' common one in loops, else one of its own (nobody has read it yet).
 */
function reductionSlot(ctx: ArrayFacts, base: "r" | "rows"): string {
  return ctx.sharedReductionArrays ? "x" : ctx.inLoop() ? base : ctx.fresh(base);
}

/** Whether a reduction's partials array may still be read by an earlier reduction: a barrier before writing it. */
export function sharedPartials(ctx: ArrayFacts): boolean {
  return ctx.inLoop() || ctx.sharedReductionArrays;
}

/** The tree's arrays (values, and their indices for tl.argmax/argmin). */
export function treeArrays(ctx: ArrayFacts, v: Value & { op: "reduce" }, arg: boolean): [string, string] {
  const w = ctx.workgroupSize;
  const slot = ctx.sharedReductionArrays ? "x" : "r";
  return [ctx.scratch(slot, ctx.dtype(v.value.type), w), arg ? ctx.scratch(`${slot}i`, "i32", w) : ""];
}

/** The subgroups' partials (and indices): outside loops an array of their own, nobody has read it yet (subgroupReduce). */
export function partialsArrays(ctx: ArrayFacts, v: Value & { op: "reduce" }, arg: boolean): [string, string] {
  const partials = Math.max(1, ctx.workgroupSize / ctx.subgroupMinSize);
  const slot = reductionSlot(ctx, "r");
  return [ctx.scratch(slot, ctx.dtype(v.value.type), partials), arg ? ctx.scratch(`${slot}i`, "i32", partials) : ""];
}

/** reduceRows' [M, Tc] array of partials: outside loops one of its own. */
export function rowsArray(ctx: ArrayFacts, v: Value & { op: "reduce" }): string {
  const tile = ctx.layout(v.value.type).tile!;
  return ctx.scratch(reductionSlot(ctx, "rows"), ctx.dtype(v.value.type), tile.rows * tile.threadsPerRow);
}
