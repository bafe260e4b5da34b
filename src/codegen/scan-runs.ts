// A scan along the contiguous last axis of a flat-layout block (layout.ts) as Triton does it: each
// invocation scans its own runs of V consecutive elements in registers, and only the runs' totals
// go through workgroup memory (bench/NOTES.md §37).
//
// Invocation t's register r * V + q holds element r * S + t * V + q (S = W * V): V consecutive
// elements of one line wherever V divides the line's length L. The totals of the runs, run
// (r, t) at position r * W + t, form a block of the same lines L / V long; scans.ts scans that in
// place, and each run then combines the total of the runs before it in its line (after it, when
// reversed) with its own elements. The array holds numel / V elements where staging took numel:
// FlagGems' 4096-element tiles of cumsum over 256 invocations, 1024 floats instead of 4096.

import type { Value } from "../ir/ir";
import type { ArrayFacts, Emitter } from "./emitter";

/** The runs' block: `v`'s shape with the last axis V times shorter, and V; undefined where the layout doesn't allow it. */
export function scanRuns(ctx: ArrayFacts, v: Value & { op: "scan" }): { shape: number[]; vec: number } | undefined {
  const shape = v.type.shape;
  const layout = ctx.layout(v.type);
  const last = shape.length - 1;
  if (v.axis !== last || layout.replicated || layout.tile || layout.rowSlice || layout.span || layout.vec < 2 || shape[last] % layout.vec !== 0) return undefined;
  if (v.values.some((x) => ctx.dtype(x.type) === "bool")) return undefined;
  return { shape: shape.map((d, a) => (a === last ? d / layout.vec : d)), vec: layout.vec };
}

/** Element count of the runs' block. */
export function runsCount(runs: { shape: number[] }): number {
  return runs.shape.reduce((a, b) => a * b, 1);
}

/**
 * Emits the scan of every operand of `v` through its runs' totals; the register names of each
 * operand's result. `arrays` are the totals' workgroup arrays (one per operand, `runsCount`
 * elements); `step(lefts, rights, targets)` writes one combine step; `scanTotals` scans the
 * arrays in place (its own barriers, the last after).
 */
export function emitRunScan(
  ctx: Emitter,
  v: Value & { op: "scan" },
  runs: { shape: number[]; vec: number },
  arrays: readonly string[],
  step: (lefts: readonly string[], rights: readonly string[], targets: readonly string[]) => void,
  scanTotals: () => void,
): string[][] {
  const layout = ctx.layout(v.type);
  const vec = runs.vec;
  const perLine = runs.shape[runs.shape.length - 1];
  const n = v.values.length;
  const types = v.values.map((x) => ctx.typeOf(x.type));
  const name = ctx.fresh("rs");
  const acc = (i: number, j: number) => `${name}_${i}_${j}`;
  // Within each run, in the scan's order: q = 0 … V-1, or V-1 … 0 when reversed.
  const order = Array.from({ length: vec }, (_, q) => (v.reverse ? vec - 1 - q : q));
  ctx.emit("workgroupBarrier();");
  for (let r = 0; r < layout.ept / vec; r++) {
    const first = order[0] + r * vec;
    for (let i = 0; i < n; i++) ctx.emit(`var ${acc(i, first)}: ${types[i]} = ${ctx.reg(v.values[i], first)};`);
    for (let q = 1; q < vec; q++) {
      const j = order[q] + r * vec;
      const prev = order[q - 1] + r * vec;
      for (let i = 0; i < n; i++) ctx.emit(`var ${acc(i, j)}: ${types[i]} = ${acc(i, prev)};`);
      step(v.values.map((_, i) => acc(i, prev)), v.values.map((x) => ctx.reg(x, j)), v.values.map((_, i) => acc(i, j)));
    }
    // The run's total is its last element in the scan's order, at the run's position r * W + t.
    const last = order[vec - 1] + r * vec;
    const at = runIndex(ctx, v, r * vec, vec);
    for (let i = 0; i < n; i++) ctx.emit(`${arrays[i]}[${at}] = ${acc(i, last)};`);
  }
  scanTotals();
  // The scanned total of the run before this one in its line (after it, reversed), where there is one.
  for (let r = 0; r < layout.ept / vec; r++) {
    const at = runIndex(ctx, v, r * vec, vec);
    const k = `(${at}) % ${perLine}`;
    const has = v.reverse ? `${k} < ${perLine - 1}` : `${k} > 0`;
    const before = v.reverse ? `${at} + 1` : `${at} - 1`;
    const pre = `${name}_p${r}`;
    ctx.emit(`if (${has}) {`);
    ctx.nested(() => {
      const pres = v.values.map((_, i) => `${pre}_${i}`);
      v.values.forEach((_, i) => ctx.emit(`let ${pres[i]} = ${arrays[i]}[${before}];`));
      for (let q = 0; q < vec; q++) {
        const j = r * vec + q;
        step(pres, v.values.map((_, i) => acc(i, j)), v.values.map((_, i) => acc(i, j)));
      }
    });
    ctx.emit("}");
  }
  return v.values.map((_, i) => Array.from({ length: layout.ept }, (_, j) => acc(i, j)));
}

/** The position in the runs' block of the run holding register j (its first, j a multiple of V): element / V. */
function runIndex(ctx: Emitter, v: Value, j: number, vec: number): string {
  return `(${ctx.elementIndex(v.type, j)}) / ${vec}`;
}
