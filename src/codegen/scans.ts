// Scans and reductions with a combine function (tl.cumsum, tl.cumprod, tl.associativeScan,
// tl.reduce). Both work on the block staged in workgroup memory, so they hold for every layout
// (flat, replicated, tiled) and along either axis of a 2-D block; both combine operands in their
// order along the axis, so a combine function need be associative, not commutative. tl.reduce
// folds each output's line left to right, in the interpreter's order.

import type { Combine, Value } from "../ir/ir";
import { BINARY_WGSL, MATH_WGSL, UNARY_WGSL } from "./elementwise";
import type { ArrayFacts, Emitter } from "./emitter";
import { literal } from "./literals";
import { defineReduced, uniformArray } from "./reductions";
import { stage, stagingArray } from "./rearrange";

/** The WGSL expression of `combine` applied to the expressions `a` and `b`. */
export function combineExpression(ctx: Emitter, combine: Combine, a: string, b: string): string {
  const memo = new Map<number, string>();
  const at = (v: Value): string => {
    const known = memo.get(v.id);
    if (known !== undefined) return known;
    const text = render(v);
    memo.set(v.id, text);
    return text;
  };
  const render = (v: Value): string => {
    switch (v.op) {
      case "combineArg":
        return v.index === 0 ? a : b;
      case "const":
        return literal(v.value, ctx.dtype(v.type));
      case "splat":
        return at(v.value);
      case "cast":
        return `${ctx.typeOf(v.type)}(${at(v.value)})`;
      case "unary":
        return UNARY_WGSL[v.fn](at(v.value), ctx.dtype(v.type));
      case "binary":
        return BINARY_WGSL[v.fn](at(v.lhs), at(v.rhs), ctx.dtype(v.rhs.type), v.lhs.type.kind === "data" ? v.lhs.type.dtype : undefined);
      case "math":
        return MATH_WGSL[v.fn](v.args.map(at), ctx.typeOf(v.type));
      case "where":
        return `select(${at(v.b)}, ${at(v.a)}, ${at(v.cond)})`;
      default:
        throw new Error(`a combine function holds a ${v.op}, which semantics/combine.ts should have refused`);
    }
  };
  return at(combine.result);
}

/**
 * The lines of `axis`: its length, and the stride between its elements (`inner`, the extent after
 * it); line r's element k is (r / inner * length + k) * inner + r % inner — for 1-D and 2-D
 * blocks, r * length + k along the last axis and k * cols + r along the first.
 */
function geometry(shape: readonly number[], axis: number): { cols: number; stride: number; length: number; element: (r: string, k: string) => string } {
  const cols = shape[shape.length - 1];
  const length = shape[axis];
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const last = axis === shape.length - 1;
  const element = (r: string, k: string) =>
    shape.length <= 2 ? (last ? `${r} * ${length} + ${k}` : `${k} * ${cols} + ${r}`) : `(${r} / ${inner} * ${length} + ${k}) * ${inner} + ${r} % ${inner}`;
  return { cols, stride: inner, length, element };
}

/**
 * tl.cumsum / tl.cumprod / tl.associativeScan, inclusive, in three passes over the block staged
 * in workgroup memory (in place): each line is cut into segments of `c` elements (about one invocation's
 * share); (1) each invocation scans its segments in order and keeps their totals; (2) it combines
 * the totals of the segments before each of its own, in order, into the segment's elements;
 * (3) each invocation reads its registers back. Four barriers whatever the length: a step-per-
 * doubling scan (Hillis–Steele) needs two per step, and each barrier costs lavapipe ~1 s of
 * shader compilation.
 */
export function emitScan(ctx: Emitter, v: Value & { op: "scan" }): void {
  const layout = ctx.layout(v.type);
  const t = ctx.typeOf(v.type);
  const { length, element } = geometry(v.type.shape, v.axis);
  const w = ctx.workgroupSize;
  const { c, perLine, segments } = segmentsOf(ctx, v);
  const s = ctx.fresh("scan");
  // The element at position k of line r, counting from the line's end when reversed.
  const at = (r: string, k: string) => element(r, v.reverse ? `(${length - 1} - ${k})` : k);
  ctx.emit("workgroupBarrier();");
  const input = stage(ctx, v.value, "x");
  // Each element is read and rewritten by the invocation that owns its segment: scanned in place.
  const output = input;
  const totals = totalsArray(ctx, v);
  ctx.emit("workgroupBarrier();");
  const eachSegment = (body: () => void) => {
    ctx.emit(`for (var ${s}_s = i32(lid); ${s}_s < ${segments}; ${s}_s += ${w}) {`);
    ctx.nested(() => {
      ctx.emit(`let ${s}_r = ${s}_s / ${perLine};`);
      ctx.emit(`let ${s}_k0 = (${s}_s % ${perLine}) * ${c};`);
      body();
    });
    ctx.emit("}");
  };
  eachSegment(() => {
    ctx.emit(`var ${s}_acc: ${t} = ${input}[${at(`${s}_r`, `${s}_k0`)}];`);
    ctx.emit(`for (var k = 1; k < ${c}; k++) {`);
    ctx.nested(() => {
      const e = at(`${s}_r`, `(${s}_k0 + k)`);
      ctx.emit(`${s}_acc = ${combineExpression(ctx, v.combine, `${s}_acc`, `${input}[${e}]`)};`);
      ctx.emit(`${output}[${e}] = ${s}_acc;`);
    });
    ctx.emit("}");
    ctx.emit(`${totals}[${s}_s] = ${s}_acc;`);
  });
  if (perLine > 1) {
    ctx.emit("workgroupBarrier();");
    eachSegment(() => {
      ctx.emit(`let ${s}_first = ${s}_r * ${perLine};`);
      ctx.emit(`if (${s}_s > ${s}_first) {`);
      ctx.nested(() => {
        ctx.emit(`var ${s}_pre: ${t} = ${totals}[${s}_first];`);
        ctx.emit(`for (var q = ${s}_first + 1; q < ${s}_s; q++) { ${s}_pre = ${combineExpression(ctx, v.combine, `${s}_pre`, `${totals}[q]`)}; }`);
        ctx.emit(`for (var k = 0; k < ${c}; k++) {`);
        const e = at(`${s}_r`, `(${s}_k0 + k)`);
        ctx.nested(() => ctx.emit(`${output}[${e}] = ${combineExpression(ctx, v.combine, `${s}_pre`, `${output}[${e}]`)};`));
        ctx.emit("}");
      });
      ctx.emit("}");
    });
  }
  ctx.emit("workgroupBarrier();");
  for (let j = 0; j < layout.ept; j++) ctx.emit(`let ${ctx.valueName(v, j)} = ${output}[${ctx.elementIndex(v.type, j)}];`);
}

/** How emitScan cuts the block's lines: segments of `c` elements, `perLine` of them a line, `segments` in all. */
function segmentsOf(ctx: ArrayFacts, v: Value & { op: "scan" }): { c: number; perLine: number; segments: number } {
  const length = v.type.shape[v.axis];
  const n = ctx.layout(v.type).numel;
  const c = Math.min(length, Math.max(1, n / ctx.workgroupSize));
  return { c, perLine: length / c, segments: n / c };
}

/** The segments' totals. */
function totalsArray(ctx: ArrayFacts, v: Value & { op: "scan" }): string {
  return ctx.scratch("scant", ctx.dtype(v.type), segmentsOf(ctx, v).segments);
}

/** The workgroup arrays `emitScan` asks for (array-plan.ts): the block staged, the segments' totals. */
export function scanArrays(ctx: ArrayFacts, v: Value & { op: "scan" }): void {
  stagingArray(ctx, v.value, "x");
  totalsArray(ctx, v);
}

/** The workgroup arrays `emitReduceWith` asks for: the block staged, and a scalar result's hand-out. */
export function reduceWithArrays(ctx: ArrayFacts, v: Value & { op: "reduceWith" }): void {
  stagingArray(ctx, v.value, "x");
  if (v.type.shape.length === 0) uniformArray(ctx, v);
}

/** tl.reduce: the block staged in workgroup memory; each output folds its line from the first element. */
export function emitReduceWith(ctx: Emitter, v: Value & { op: "reduceWith" }): void {
  const src = v.value;
  const { cols, stride, length, element } = geometry(src.type.shape, v.axis);
  const t = ctx.typeOf(v.type);
  ctx.emit("workgroupBarrier();");
  const array = stage(ctx, src, "x");
  ctx.emit("workgroupBarrier();");
  const fold = (first: string) => {
    const acc = ctx.fresh("acc");
    ctx.emit(`var ${acc}: ${t} = ${array}[${first}];`);
    ctx.emit(`for (var k: i32 = 1; k < ${length}; k++) {`);
    ctx.nested(() => ctx.emit(`${acc} = ${combineExpression(ctx, v.combine, acc, `${array}[${first} + k${stride === 1 ? "" : ` * ${stride}`}]`)};`));
    ctx.emit("}");
    return acc;
  };
  if (v.type.shape.length === 0) {
    defineReduced(ctx, v, fold("0"));
    return;
  }
  const out = ctx.layout(v.type);
  for (let j = 0; j < out.ept; j++) {
    const e = ctx.elementIndex(v.type, j);
    // The line's first element: row e for a reduction along axis 1, column e along axis 0.
    const acc = fold(src.type.shape.length <= 2 ? (stride === 1 ? `(${e}) * ${cols}` : `(${e})`) : `(${element(`(${e})`, "0")})`);
    ctx.emit(`let ${ctx.valueName(v, j)} = ${acc};`);
  }
}

export function emitCombineArg(_ctx: Emitter, v: Value & { op: "combineArg" }): void {
  throw new Error(`combine function parameter ${v.index} outside its template`);
}
