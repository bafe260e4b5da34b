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
import { emitRunScan, runsCount, scanRuns } from "./scan-runs";
import { castWgsl } from "./bf16";

/**
 * The WGSL expressions of `combine`'s results applied to the expressions `operands` (the left side's
 * n, then the right side's). With one result the expression is written out whole; with several,
 * each intermediate value is a `let` emitted first, so results that share terms don't repeat them.
 */
function combineExpressions(ctx: Emitter, combine: Combine, operands: readonly string[]): string[] {
  const memo = new Map<number, string>();
  const several = combine.results.length > 1;
  const at = (v: Value): string => {
    const known = memo.get(v.id);
    if (known !== undefined) return known;
    let text = render(v);
    if (several && v.op !== "combineArg" && v.op !== "const" && v.op !== "splat") {
      const name = ctx.fresh("cv");
      ctx.emit(`let ${name} = ${text};`);
      text = name;
    }
    memo.set(v.id, text);
    return text;
  };
  const render = (v: Value): string => {
    switch (v.op) {
      case "combineArg":
        return operands[v.index];
      case "const":
        return literal(v.value, ctx.dtype(v.type));
      case "splat":
        return at(v.value);
      case "cast":
        return castWgsl(v.value.type, v.type, ctx.typeOf(v.type), at(v.value));
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
  return combine.results.map(at);
}

/**
 * One combine step: `targets[i] = combine_i(lefts, rights)` for every result; with several, all
 * results are computed from the operands before any target is written.
 */
export function emitStep(ctx: Emitter, combine: Combine, lefts: readonly string[], rights: readonly string[], targets: readonly string[]): void {
  const results = combineExpressions(ctx, combine, [...lefts, ...rights]);
  if (results.length === 1) return ctx.emit(`${targets[0]} = ${results[0]};`);
  const fresh = results.map((r) => {
    const name = ctx.fresh("cr");
    ctx.emit(`let ${name} = ${r};`);
    return name;
  });
  fresh.forEach((name, i) => ctx.emit(`${targets[i]} = ${name};`));
}

/**
 * Operand i's workgroup array slot: `base` for the first operand of its dtype (the arrays are named
 * by slot and dtype, so a float value and an i32 index share none), `base` + k for the k-th after it.
 */
export function slot(ctx: ArrayFacts, v: Value & { op: "scan" | "reduceWith" }, base: string, i: number): string {
  const dtype = ctx.dtype(v.values[i].type);
  return nth(base, v.values.slice(0, i).filter((x) => ctx.dtype(x.type) === dtype).length);
}

/** The name of operand i's variable or array: `base` for the first (as with one operand), `base` + i after it. */
function nth(base: string, i: number): string {
  return i === 0 ? base : `${base}${i}`;
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
 * shader compilation. A scan of a tuple of blocks stages and scans every operand together, and
 * reads back result `index`.
 */
export function emitScan(ctx: Emitter, v: Value & { op: "scan" }): void {
  const runs = scanRuns(ctx, v);
  if (runs) {
    const scan = () => {
      const arrays = v.values.map((x, i) => ctx.scratch(slot(ctx, v, "x", i), ctx.dtype(x.type), runsCount(runs)));
      return emitRunScan(ctx, v, runs, arrays, (l, r, t) => emitStep(ctx, v.combine, l, r, t), () => scanStaged(ctx, v, arrays, runs.shape));
    };
    // A tuple's results come from one scan, by the first of its ops (as below).
    const results = v.values.length === 1 ? scan() : ctx.shared(v.combine, scan);
    results[v.index].forEach((r, j) => ctx.emit(`let ${ctx.valueName(v, j)} = ${r};`));
    return;
  }
  if (v.values.length === 1) {
    const array = scanInPlace(ctx, v)[0];
    for (let j = 0; j < ctx.layout(v.type).ept; j++) ctx.emit(`let ${ctx.valueName(v, j)} = ${array}[${ctx.elementIndex(v.type, j)}];`);
    return;
  }
  // A tuple's results are read into registers at once: the arrays are reused by later ops.
  const results = ctx.shared(v.combine, () => {
    const arrays = scanInPlace(ctx, v);
    return v.values.map((x, i) => registers(ctx, x.type, (j) => `${arrays[i]}[${ctx.elementIndex(x.type, j)}]`));
  });
  results[v.index].forEach((r, j) => ctx.emit(`let ${ctx.valueName(v, j)} = ${r};`));
}

/** `let`s of fresh names holding `expr(j)` for each register of a block of `type`; their names. */
function registers(ctx: Emitter, type: Value["type"], expr: (j: number) => string): string[] {
  const name = ctx.fresh("res");
  return Array.from({ length: ctx.layout(type).ept }, (_, j) => {
    ctx.emit(`let ${name}_${j} = ${expr(j)};`);
    return `${name}_${j}`;
  });
}

/** The scan of every operand, in place in its staged array (after a barrier); the arrays' names. */
function scanInPlace(ctx: Emitter, v: Value & { op: "scan" }): string[] {
  ctx.emit("workgroupBarrier();");
  // Each element is read and rewritten by the invocation that owns its segment: scanned in place.
  const arrays = v.values.map((x, i) => stage(ctx, x, slot(ctx, v, "x", i)));
  scanStaged(ctx, v, arrays, v.type.shape);
  return arrays;
}

/**
 * The three passes over `arrays` (one per operand, each holding a block of `shape` written before
 * the barrier this starts with), scanned along `v`'s axis in place; ends with a barrier.
 */
export function scanStaged(ctx: Emitter, v: Value & { op: "scan" }, arrays: readonly string[], shape: readonly number[]): void {
  // `shape` has v's axes, its scanned axis perhaps shorter.
  const n = v.values.length;
  const types = v.values.map((x) => ctx.typeOf(x.type));
  const axis = v.axis;
  const { length, element } = geometry(shape, axis);
  const w = ctx.workgroupSize;
  const { c, perLine, segments } = segmentsOf(ctx, shape, axis);
  const s = ctx.fresh("scan");
  // The element at position k of line r, counting from the line's end when reversed.
  const at = (r: string, k: string) => element(r, v.reverse ? `(${length - 1} - ${k})` : k);
  const totals = v.values.map((_, i) => totalsArray(ctx, v, i, shape));
  const acc = types.map((_, i) => nth(`${s}_acc`, i));
  const pre = types.map((_, i) => nth(`${s}_pre`, i));
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
    for (let i = 0; i < n; i++) ctx.emit(`var ${acc[i]}: ${types[i]} = ${arrays[i]}[${at(`${s}_r`, `${s}_k0`)}];`);
    ctx.emit(`for (var k = 1; k < ${c}; k++) {`);
    ctx.nested(() => {
      const e = at(`${s}_r`, `(${s}_k0 + k)`);
      emitStep(ctx, v.combine, acc, arrays.map((a) => `${a}[${e}]`), acc);
      for (let i = 0; i < n; i++) ctx.emit(`${arrays[i]}[${e}] = ${acc[i]};`);
    });
    ctx.emit("}");
    for (let i = 0; i < n; i++) ctx.emit(`${totals[i]}[${s}_s] = ${acc[i]};`);
  });
  if (perLine > 1) {
    ctx.emit("workgroupBarrier();");
    eachSegment(() => {
      ctx.emit(`let ${s}_first = ${s}_r * ${perLine};`);
      ctx.emit(`if (${s}_s > ${s}_first) {`);
      ctx.nested(() => {
        for (let i = 0; i < n; i++) ctx.emit(`var ${pre[i]}: ${types[i]} = ${totals[i]}[${s}_first];`);
        if (n === 1) {
          ctx.emit(`for (var q = ${s}_first + 1; q < ${s}_s; q++) { ${pre[0]} = ${combineExpressions(ctx, v.combine, [pre[0], `${totals[0]}[q]`])[0]}; }`);
        } else {
          ctx.emit(`for (var q = ${s}_first + 1; q < ${s}_s; q++) {`);
          ctx.nested(() => emitStep(ctx, v.combine, pre, totals.map((t) => `${t}[q]`), pre));
          ctx.emit("}");
        }
        ctx.emit(`for (var k = 0; k < ${c}; k++) {`);
        const e = at(`${s}_r`, `(${s}_k0 + k)`);
        const elements = arrays.map((a) => `${a}[${e}]`);
        ctx.nested(() => emitStep(ctx, v.combine, pre, elements, elements));
        ctx.emit("}");
      });
      ctx.emit("}");
    });
  }
  ctx.emit("workgroupBarrier();");
}

/** How the scan cuts the lines of a block of `shape` along `axis`: segments of `c` elements, `perLine` of them a line, `segments` in all. */
function segmentsOf(ctx: ArrayFacts, shape: readonly number[], axis: number): { c: number; perLine: number; segments: number } {
  const length = shape[axis];
  const n = shape.reduce((a, b) => a * b, 1);
  const c = Math.min(length, Math.max(1, n / ctx.workgroupSize));
  return { c, perLine: length / c, segments: n / c };
}

/** The segments' totals of operand i, for a block of `shape` (`v`'s, or its runs' totals: scan-runs.ts). */
export function totalsArray(ctx: ArrayFacts, v: Value & { op: "scan" }, i: number, shape: readonly number[]): string {
  return ctx.scratch(slot(ctx, v, "scant", i), ctx.dtype(v.values[i].type), segmentsOf(ctx, shape, v.axis).segments);
}

/** The workgroup arrays `emitScan` asks for (array-plan.ts): each operand staged, the segments' totals. */
export function scanArrays(ctx: ArrayFacts, v: Value & { op: "scan" }): void {
  const runs = scanRuns(ctx, v);
  if (runs) {
    v.values.forEach((x, i) => ctx.scratch(slot(ctx, v, "x", i), ctx.dtype(x.type), runsCount(runs)));
    v.values.forEach((_, i) => totalsArray(ctx, v, i, runs.shape));
    return;
  }
  v.values.forEach((x, i) => stagingArray(ctx, x, slot(ctx, v, "x", i)));
  v.values.forEach((_, i) => totalsArray(ctx, v, i, v.type.shape));
}

/** The workgroup arrays `emitReduceWith` asks for: each operand staged, and a scalar result's hand-out. */
export function reduceWithArrays(ctx: ArrayFacts, v: Value & { op: "reduceWith" }): void {
  v.values.forEach((x, i) => stagingArray(ctx, x, slot(ctx, v, "x", i)));
  if (v.type.shape.length === 0) uniformArray(ctx, v);
}

/**
 * tl.reduce: the block (each operand of a tuple) staged in workgroup memory; each output folds its
 * line from the first element, and a tuple's op keeps result `index`.
 */
export function emitReduceWith(ctx: Emitter, v: Value & { op: "reduceWith" }): void {
  const define = (acc: string, j: number) => (v.type.shape.length === 0 ? defineReduced(ctx, v, acc) : ctx.emit(`let ${ctx.valueName(v, j)} = ${acc};`));
  if (v.values.length === 1) {
    foldLines(ctx, v, (accs, j) => define(accs[0], j));
    return;
  }
  // A tuple's results are computed once, by the first of its ops (each register's fold gives them all).
  const results = ctx.shared(v.combine, () => foldLines(ctx, v));
  results[v.index].forEach(define);
}

/**
 * Every operand staged, then each output register's line folded: the accumulators, by operand and
 * register; `folded` is called after each register's fold.
 */
function foldLines(ctx: Emitter, v: Value & { op: "reduceWith" }, folded?: (accs: string[], j: number) => void): string[][] {
  const src = v.values[0];
  const { cols, stride, length, element } = geometry(src.type.shape, v.axis);
  const types = v.values.map((x) => ctx.typeOf(x.type));
  ctx.emit("workgroupBarrier();");
  const arrays = v.values.map((x, i) => stage(ctx, x, slot(ctx, v, "x", i)));
  ctx.emit("workgroupBarrier();");
  const fold = (first: string) => {
    const acc0 = ctx.fresh("acc");
    const acc = types.map((_, i) => nth(acc0, i));
    types.forEach((t, i) => ctx.emit(`var ${acc[i]}: ${t} = ${arrays[i]}[${first}];`));
    ctx.emit(`for (var k: i32 = 1; k < ${length}; k++) {`);
    ctx.nested(() => emitStep(ctx, v.combine, acc, arrays.map((a) => `${a}[${first} + k${stride === 1 ? "" : ` * ${stride}`}]`), acc));
    ctx.emit("}");
    return acc;
  };
  const foldAt = (first: string, j: number) => {
    const accs = fold(first);
    folded?.(accs, j);
    return accs;
  };
  if (v.type.shape.length === 0) return transpose([foldAt("0", 0)]);
  const out = ctx.layout(v.type);
  // The line's first element: row e for a reduction along axis 1, column e along axis 0.
  const first = (e: string) => (src.type.shape.length <= 2 ? (stride === 1 ? `(${e}) * ${cols}` : `(${e})`) : `(${element(`(${e})`, "0")})`);
  return transpose(Array.from({ length: out.ept }, (_, j) => foldAt(first(ctx.elementIndex(v.type, j)), j)));
}

/** byRegister[j][i] → [i][j]. */
function transpose(byRegister: string[][]): string[][] {
  return byRegister[0].map((_, i) => byRegister.map((r) => r[i]));
}

export function emitCombineArg(_ctx: Emitter, v: Value & { op: "combineArg" }): void {
  throw new Error(`combine function parameter ${v.index} outside its template`);
}
