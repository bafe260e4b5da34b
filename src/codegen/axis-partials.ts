// A reduction along one axis of a flat-layout block (layout.ts) as Triton does it: each invocation
// first combines, in registers, its own elements that reduce into the same output, and only those
// partials cross through workgroup memory — not the whole block (bench/NOTES.md §37).
//
// A flat block of W invocations holds element  f = r * S + t * V + q  in register r * V + q of
// invocation t (S = W * V). Seen along the axis, f = (o * L + k) * I + i (outer o, position k of
// L, inner i of I). Where I divides S and S divides L * I:
//  - i = (t * V + q) mod I whatever r, and o = r / (L * I / S) whatever t and q: the R = L * I / S
//    registers r of one group g = o (same t, q) all reduce into output (g, i) — combined first;
//  - where I divides V, the V / I elements of a run with the same q mod I share an output too.
// Each invocation so leaves Q = min(V, I) partials per group, written at g * W * Q + t * Q + q'
// (q' = q mod Q); the partial at position p of group g belongs to column p mod I, so output
// (g, i) folds the W * Q / I partials at g * W * Q + i + I * m. The array holds O * W * Q elements
// where staging took O * L * I: FlagGems' [2048, 4] tile summed along axis 0 over 256 invocations,
// 1024 floats instead of 8192.
//
// Along a contiguous axis (I = 1) shorter than S, as the rows of a [BLOCK_M, BLOCK_N] block: each
// run of V lies in one line wherever V divides L, so each invocation combines each of its runs, run
// (r, t) written at position r * W + t = its first element / V, and output o folds the L / V
// partials at o * L / V: numel / V elements.

import type { ReduceFn, Value } from "../ir/ir";
import type { ArrayFacts, Emitter } from "./emitter";

/** How a reduction along an axis splits: `O` groups of lines, each `L` long, `I` apart; `Q` partials per invocation and group (or one per run). */
export interface AxisPartials {
  /** Groups of lines (above), or one partial per run (a contiguous axis). */
  kind: "groups" | "runs";
  outer: number;
  length: number;
  inner: number;
  /** Registers of one invocation a group's partial combines, along the runs (R). */
  runsPerGroup: number;
  /** Partials per invocation and group (Q). */
  perInvocation: number;
}

/** The split of `v`'s reduction, when its source's flat layout allows it and it takes less memory than staging; else undefined. */
export function axisPartials(ctx: ArrayFacts, v: Value & { op: "reduce" }): AxisPartials | undefined {
  const shape = v.value.type.shape;
  const layout = ctx.layout(v.value.type);
  // Runs of 8 (layout.span) are not split this way: staged.
  if (layout.replicated || layout.tile || layout.rowSlice || layout.span || ctx.dtype(v.value.type) === "bool") return undefined;
  const w = ctx.workgroupSize;
  const vec = layout.vec;
  const span = w * vec;
  const outer = shape.slice(0, v.axis).reduce((a, b) => a * b, 1);
  const length = shape[v.axis];
  const inner = shape.slice(v.axis + 1).reduce((a, b) => a * b, 1);
  const perInvocation = inner % vec === 0 ? vec : vec % inner === 0 ? inner : 0;
  if (span % inner === 0 && (length * inner) % span === 0 && perInvocation > 0 && outer * w * perInvocation < layout.numel) {
    return { kind: "groups", outer, length, inner, runsPerGroup: (length * inner) / span, perInvocation };
  }
  if (inner === 1 && vec > 1 && length % vec === 0) return { kind: "runs", outer, length, inner, runsPerGroup: 1, perInvocation: 1 };
  return undefined;
}

/** Elements of the partials' array. */
function partialsCount(ctx: ArrayFacts, v: Value & { op: "reduce" }, split: AxisPartials): number {
  return split.kind === "runs" ? ctx.layout(v.value.type).numel / ctx.layout(v.value.type).vec : split.outer * ctx.workgroupSize * split.perInvocation;
}

/** The partials' arrays (values, and the positions along the axis for tl.argmax / argmin). */
export function axisPartialsArrays(ctx: ArrayFacts, v: Value & { op: "reduce" }, split: AxisPartials): [string, string] {
  const size = partialsCount(ctx, v, split);
  return [ctx.scratch("x", ctx.dtype(v.value.type), size), isArg(v.fn) ? ctx.scratch("xi", "i32", size) : ""];
}

function isArg(fn: ReduceFn): boolean {
  return fn === "argmax" || fn === "argmin";
}

/**
 * Emits the reduction: `identity` and `combine` are the reduction's (reductions.ts), `better` the
 * comparison of tl.argmax / argmin. Two barriers, as staging took: before the partials are written
 * (an earlier reader of the array is done) and after.
 */
export function emitAxisPartials(
  ctx: Emitter,
  v: Value & { op: "reduce" },
  split: AxisPartials,
  identity: string,
  combine: (a: string, b: string) => string,
  better: string | undefined,
): void {
  const src = v.value;
  const t = ctx.typeOf(src.type);
  const w = ctx.workgroupSize;
  const { vec } = ctx.layout(src.type);
  const { outer, length, inner, runsPerGroup, perInvocation: q } = split;
  const [array, indices] = axisPartialsArrays(ctx, v, split);
  const name = ctx.fresh("ap");
  // The position along the axis of register j's element (tl.argmax's index).
  const position = (j: number) => `((${ctx.elementIndex(src.type, j)} / ${inner}) % ${length})`;
  const take = (p: string, j: number) => {
    const x = ctx.reg(src, j);
    if (!better) return ctx.emit(`${p} = ${combine(p, x)};`);
    const k = position(j);
    ctx.emit(`if (${x} ${better} ${p} || (${x} == ${p} && ${k} < ${p}_i)) { ${p} = ${x}; ${p}_i = ${k}; }`);
  };
  // Each partial: the registers it combines, and where it goes.
  const partials: { regs: number[]; at: string }[] = [];
  if (split.kind === "runs") {
    for (let r = 0; r < ctx.layout(src.type).ept / vec; r++) {
      partials.push({ regs: Array.from({ length: vec }, (_, l) => r * vec + l), at: `(${ctx.elementIndex(src.type, r * vec)}) / ${vec}` });
    }
  } else {
    // t * Q: with Q = V, register 0's element (t * V).
    const lane = q === vec ? ctx.elementIndex(src.type, 0) : `i32(lid) * ${q}`;
    for (let g = 0; g < outer; g++) {
      for (let c = 0; c < q; c++) {
        const regs: number[] = [];
        for (let r = g * runsPerGroup; r < (g + 1) * runsPerGroup; r++) for (let l = c; l < vec; l += q) regs.push(r * vec + l);
        partials.push({ regs, at: g * w * q + c === 0 ? lane : `${lane} + ${g * w * q + c}` });
      }
    }
  }
  ctx.emit("workgroupBarrier();");
  partials.forEach(({ regs, at }, n) => {
    const p = `${name}_${n}`;
    ctx.emit(`var ${p}: ${t} = ${identity};`);
    if (better) ctx.emit(`var ${p}_i: i32 = 2147483647;`);
    for (const j of regs) take(p, j);
    ctx.emit(`${array}[${at}] = ${p};`);
    if (better) ctx.emit(`${indices}[${at}] = ${p}_i;`);
  });
  ctx.emit("workgroupBarrier();");
  const out = ctx.layout(v.type);
  // Output e's partials: from `start`, `stride` apart, `count` of them. Groups: output (g, i) = e
  // starts at g * W * Q + i, I apart; runs: line e's L / V runs, one after another.
  const runs = split.kind === "runs";
  const count = runs ? length / vec : (w * q) / inner;
  const stride = runs ? 1 : inner;
  const start = (e: string) => (runs ? `(${e}) * ${count}` : `${outer === 1 ? "" : `(${e}) / ${inner} * ${w * q} + `}${inner === 1 ? "0" : `(${e}) % ${inner}`}`);
  for (let j = 0; j < out.ept; j++) {
    const e = ctx.elementIndex(v.type, j);
    const acc = ctx.fresh("acc");
    const first = ctx.fresh("apf");
    ctx.emit(`let ${first} = ${start(e)};`);
    ctx.emit(`var ${acc}: ${t} = ${identity};`);
    if (better) ctx.emit(`var ${acc}_i: i32 = 2147483647;`);
    ctx.emit(`for (var m: i32 = 0; m < ${count}; m++) {`);
    ctx.nested(() => {
      const at = `${first} + m${stride === 1 ? "" : ` * ${stride}`}`;
      const x = `${array}[${at}]`;
      if (!better) return ctx.emit(`${acc} = ${combine(acc, x)};`);
      const k = `${indices}[${at}]`;
      ctx.emit(`if (${x} ${better} ${acc} || (${x} == ${acc} && ${k} < ${acc}_i)) { ${acc} = ${x}; ${acc}_i = ${k}; }`);
    });
    ctx.emit("}");
    // Every element equal (all -inf, or NaN): the first position, as a fold from the start gives.
    ctx.emit(`let ${ctx.valueName(v, j)} = ${better ? `select(${acc}_i, 0, ${acc}_i == 2147483647)` : acc};`);
  }
}
