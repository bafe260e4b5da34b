// Operations that pick elements by position across invocations (interpreter/select-ops.ts does
// the same on the CPU): tl.cat/join/interleave (concat, of two blocks), tl.gather (positions
// from a block of indices), tl.histogram and tl.sort. Each stages its operands in workgroup
// memory (rearrange.ts's `stage`), then every invocation reads what its registers need.
// tl.split's halves and tl.flip move one block by a fixed map: rearrange.ts.

import type { Value } from "../ir/ir";
import type { ArrayFacts, Emitter } from "./emitter";
import { alongAxis, emitRearrange, fromAxis, recomputable, rematerialize, stage, stagingArray } from "./rearrange";

/** tl.cat / tl.join / tl.interleave: recomputed where both blocks are, else both staged. */
export function emitConcat(ctx: Emitter, v: Value & { op: "concat" }): void {
  const layout = ctx.layout(v.type);
  const recomputed = Array.from({ length: layout.ept }, (_, j) => rematerialize(ctx, v, ctx.elementIndex(v.type, j)));
  if (recomputed.every((x) => x !== undefined)) {
    recomputed.forEach((x, j) => ctx.emit(`let ${ctx.valueName(v, j)} = ${x};`));
    return;
  }
  ctx.emit("workgroupBarrier();");
  const a = stage(ctx, v.values[0], "x");
  // A block joined with itself (tl.interleave(x, x)) is staged once and read on both sides.
  const b = v.values[1] === v.values[0] ? a : stage(ctx, v.values[1], "y");
  ctx.emit("workgroupBarrier();");
  const [la, lb] = v.values.map((x) => x.type.shape[v.axis]);
  for (let j = 0; j < layout.ept; j++) {
    const { o, k, i, inner } = alongAxis(v.type.shape, v.axis, ctx.elementIndex(v.type, j), ctx);
    const position = ctx.fresh("cat");
    ctx.emit(`let ${position} = ${k};`);
    // Each side's index is clamped into its array: the select reads both.
    const fromA = `${a}[min(${fromAxis(o, position, i, la, inner)}, ${la * (layout.numel / (la + lb)) - 1})]`;
    const fromB = `${b}[max(${fromAxis(o, `${position} - ${la}`, i, lb, inner)}, 0)]`;
    ctx.emit(`let ${ctx.valueName(v, j)} = select(${fromB}, ${fromA}, ${position} < ${la});`);
  }
}

/** The workgroup arrays `emitConcat` asks for (array-plan.ts): none where it recomputes, else both blocks staged. */
export function concatArrays(ctx: ArrayFacts, v: Value & { op: "concat" }): void {
  if (recomputable(ctx, v)) return;
  stagingArray(ctx, v.values[0], "x");
  if (v.values[1] !== v.values[0]) stagingArray(ctx, v.values[1], "y");
}

/** tl.split's halves, tl.flip: a fixed map of one block (rearrange.ts). */
export function emitSelection(ctx: Emitter, v: Value & { op: "slice" | "flip" }): void {
  emitRearrange(ctx, v);
}

/** The workgroup array `emitGather` asks for (array-plan.ts): the source staged. */
export function gatherArrays(ctx: ArrayFacts, v: Value & { op: "gather" }): void {
  stagingArray(ctx, v.value, "x");
}

/** tl.gather: the source staged; each register reads the element its index names along the axis (clamped to it). */
export function emitGather(ctx: Emitter, v: Value & { op: "gather" }): void {
  ctx.emit("workgroupBarrier();");
  const src = stage(ctx, v.value, "x");
  ctx.emit("workgroupBarrier();");
  const length = v.value.type.shape[v.axis];
  for (let j = 0; j < ctx.layout(v.type).ept; j++) {
    const { o, i, inner } = alongAxis(v.type.shape, v.axis, ctx.elementIndex(v.type, j), ctx);
    const at = ctx.fresh("gat");
    ctx.emit(`let ${at} = clamp(i32(${ctx.reg(v.index, j)}), 0, ${length - 1});`);
    ctx.emit(`let ${ctx.valueName(v, j)} = ${src}[${fromAxis(o, at, i, length, inner)}];`);
  }
}

/** tl.histogram's array: the values, as i32 bins. */
export function histogramArray(ctx: ArrayFacts, v: Value & { op: "histogram" }): string {
  return ctx.scratch("h", "i32", ctx.layout(v.value.type).numel);
}

/** tl.histogram: the values staged (a masked-off one as `bins`, which no bin counts); each bin counts its equals. */
export function emitHistogram(ctx: Emitter, v: Value & { op: "histogram" }): void {
  const src = v.value;
  const layout = ctx.layout(src.type);
  const array = histogramArray(ctx, v);
  ctx.emit("workgroupBarrier();");
  const write = () => {
    for (let j = 0; j < layout.ept; j++) {
      const x = ctx.dtype(src.type) === "u32" ? `i32(min(${ctx.reg(src, j)}, ${v.bins}u))` : ctx.reg(src, j);
      ctx.emit(`${array}[${ctx.elementIndex(src.type, j)}] = ${v.mask ? `select(${v.bins}, ${x}, ${ctx.reg(v.mask, j)})` : x};`);
    }
  };
  const owner = ctx.ownerCondition(src.type);
  if (owner) {
    ctx.emit(`if (${owner}) {`);
    ctx.nested(write);
    ctx.emit("}");
  } else {
    write();
  }
  ctx.emit("workgroupBarrier();");
  for (let j = 0; j < ctx.layout(v.type).ept; j++) {
    const count = ctx.valueName(v, j);
    ctx.emit(`var ${count}: i32 = 0;`);
    ctx.emit(`for (var q = 0; q < ${layout.numel}; q++) { ${count} += select(0, 1, ${array}[q] == ${ctx.elementIndex(v.type, j)}); }`);
  }
}

/** The order tl.sort sorts by: a u32 whose unsigned order is IEEE totalOrder for floats, the number's order for integers. */
function sortKey(ctx: Emitter, v: Value, x: string): string {
  switch (ctx.dtype(v.type)) {
    case "f32":
    case "f16": {
      const bits = `bitcast<u32>(f32(${x}))`;
      return `select(${bits} | 0x80000000u, ~${bits}, (${bits} >> 31u) == 1u)`;
    }
    case "i32":
      return `(bitcast<u32>(${x}) ^ 0x80000000u)`;
    default:
      return x;
  }
}

/** tl.sort's second array, the elements at their ranks. */
function sortedArray(ctx: ArrayFacts, v: Value & { op: "sort" }): string {
  return ctx.scratch("sorted", ctx.dtype(v.value.type), ctx.layout(v.value.type).numel);
}

/** The workgroup arrays `emitSort` asks for (array-plan.ts): the block staged, and sorted. */
export function sortArrays(ctx: ArrayFacts, v: Value & { op: "sort" }): void {
  stagingArray(ctx, v.value, "x");
  sortedArray(ctx, v);
}

/**
 * tl.sort by rank: the block staged; each element counts the elements of its line that come before
 * it (a smaller key, or an equal key earlier in the line: stable) and writes itself at that
 * position of a second array, which every invocation then reads back.
 */
export function emitSort(ctx: Emitter, v: Value & { op: "sort" }): void {
  const src = v.value;
  const layout = ctx.layout(src.type);
  const length = src.type.shape[v.axis];
  ctx.emit("workgroupBarrier();");
  const input = stage(ctx, src, "x");
  const output = sortedArray(ctx, v);
  ctx.emit("workgroupBarrier();");
  const before = v.descending ? ">" : "<";
  const place = () => {
    for (let j = 0; j < layout.ept; j++) {
      const { o, k, i, inner } = alongAxis(src.type.shape, v.axis, ctx.elementIndex(src.type, j), ctx);
      const [key, rank, at] = [ctx.fresh("key"), ctx.fresh("rank"), ctx.fresh("pos")];
      ctx.emit(`let ${key} = ${sortKey(ctx, src, ctx.reg(src, j))};`);
      ctx.emit(`let ${at} = ${k};`);
      ctx.emit(`var ${rank}: i32 = 0;`);
      ctx.emit(`for (var q = 0; q < ${length}; q++) {`);
      ctx.nested(() => {
        ctx.emit(`let other = ${sortKey(ctx, src, `${input}[${fromAxis(o, "q", i, length, inner)}]`)};`);
        ctx.emit(`${rank} += select(0, 1, other ${before} ${key} || (other == ${key} && q < ${at}));`);
      });
      ctx.emit("}");
      ctx.emit(`${output}[${fromAxis(o, rank, i, length, inner)}] = ${ctx.reg(src, j)};`);
    }
  };
  const owner = ctx.ownerCondition(src.type);
  if (owner) {
    ctx.emit(`if (${owner}) {`);
    ctx.nested(place);
    ctx.emit("}");
  } else {
    place();
  }
  ctx.emit("workgroupBarrier();");
  for (let j = 0; j < ctx.layout(v.type).ept; j++) ctx.emit(`let ${ctx.valueName(v, j)} = ${output}[${ctx.elementIndex(v.type, j)}];`);
}
