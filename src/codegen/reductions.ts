// Reductions (tl.sum, tl.max, tl.min, tl.argmax): each invocation combines its own registers,
// then across the workgroup — subgroup operations where the adapter has them, else a tree in
// workgroup memory; along one axis of a 2-D block, through workgroup memory.

import type { Dtype, ReduceFn, Value } from "../ir/ir";
import type { ArrayFacts, Emitter } from "./emitter";
import { literal, type RegisterDtype } from "./literals";
import { stage, stagingArray } from "./rearrange";
import { pieceRows, rowSliceOf, rowSliceOffset, sliceMatchesTile } from "./layout";
import { axisPartials, axisPartialsArrays, emitAxisPartials } from "./axis-partials";
import { columnPartialsArray, columnPartialsTile, emitColumnPartials } from "./column-partials";
import { partialsArrays, rowsArray, sharedPartials, treeArrays } from "./reduction-arrays";
import { LAZY_SLACK } from "./lazy-max";

/** What a reduction function is in WGSL: its identity, how two partials combine, its subgroup operation. */
interface Reduction {
  identity: (dtype: RegisterDtype) => string;
  combine: (a: string, b: string) => string;
  subgroup: string;
}

/** tl.argmax (argmin) combines values as max (min) does; the index of the first maximum is carried beside (argmax paths below). */
export const REDUCE_WGSL: Record<ReduceFn, Reduction> = {
  sum: { identity: (dtype) => literal(0, dtype), combine: (a, b) => `(${a} + ${b})`, subgroup: "subgroupAdd" },
  max: { identity: (dtype) => extreme(dtype, true), combine: (a, b) => `max(${a}, ${b})`, subgroup: "subgroupMax" },
  min: { identity: (dtype) => extreme(dtype, false), combine: (a, b) => `min(${a}, ${b})`, subgroup: "subgroupMin" },
  argmax: { identity: (dtype) => extreme(dtype, true), combine: (a, b) => `max(${a}, ${b})`, subgroup: "subgroupMax" },
  argmin: { identity: (dtype) => extreme(dtype, false), combine: (a, b) => `min(${a}, ${b})`, subgroup: "subgroupMin" },
  xorSum: { identity: (dtype) => literal(0, dtype), combine: (a, b) => `(${a} ^ ${b})`, subgroup: "subgroupXor" },
};

/** tl.argmax and tl.argmin carry the index of the first extreme beside the value; `better` compares two values. */
function argReduction(fn: ReduceFn): { better: string } | undefined {
  return fn === "argmax" ? { better: ">" } : fn === "argmin" ? { better: "<" } : undefined;
}

/**
 * Defines a reduction's scalar result from `expr`, which every invocation computes alike. When it
 * steers control flow, it is passed through workgroup memory with workgroupUniformLoad so WGSL's
 * uniformity analysis accepts barriers under that control flow (one more barrier).
 */
export function defineReduced(ctx: Emitter, v: Value, expr: string): void {
  const u = uniformArray(ctx, v);
  if (!u) {
    ctx.emit(`let ${ctx.valueName(v, 0)} = ${expr};`);
    return;
  }
  ctx.emit(`if (lid == 0u) { ${u}[0] = ${expr}; }`);
  ctx.emit(`let ${ctx.valueName(v, 0)} = workgroupUniformLoad(&${u}[0]);`);
}

/** The array `defineReduced` hands a scalar result out through, when it steers control flow. */
export function uniformArray(ctx: ArrayFacts, v: Value): string | undefined {
  return ctx.steersControl(v) ? ctx.scratch("u", ctx.dtype(v.type), 1) : undefined;
}

function identity(fn: ReduceFn, dtype: RegisterDtype): string {
  return REDUCE_WGSL[fn].identity(dtype);
}

/** The lowest (`low`) or highest value of a dtype. */
function extreme(dtype: RegisterDtype, low: boolean): string {
  switch (dtype) {
    case "f32":
    case "f16":
      return literal(low ? -Infinity : Infinity, dtype);
    case "i32":
      return literal(low ? -2147483648 : 2147483647, "i32");
    case "u32":
      return literal(low ? 0 : 4294967295, "u32");
    case "bool":
      return low ? "false" : "true";
  }
}

function combine(fn: ReduceFn, a: string, b: string): string {
  return REDUCE_WGSL[fn].combine(a, b);
}

/**
 * How a reduction to one scalar combines across the workgroup: not at all (one invocation), one
 * subgroup operation (a workgroup no larger than a subgroup), subgroup operations and an array of
 * their partials, or a tree in workgroup memory.
 */
type ScalarReduction = "registers" | "subgroup" | "partials" | "tree";

function scalarReduction(ctx: ArrayFacts, v: Value & { op: "reduce" }): ScalarReduction {
  const dtype = ctx.dtype(v.value.type);
  if (ctx.workgroupSize === 1) return "registers";
  if (dtype !== "f16" && dtype !== "bool" && ctx.hasSubgroups) return ctx.workgroupSize <= ctx.subgroupMinSize ? "subgroup" : "partials";
  return "tree";
}

/** The workgroup arrays `emitReduce` asks for, asked for the same way: the plan's account of them (array-plan.ts). */
export function reduceArrays(ctx: ArrayFacts, v: Value & { op: "reduce" }): void {
  if (v.type.shape.length === 0) {
    const how = scalarReduction(ctx, v);
    if (how === "tree") treeArrays(ctx, v, !!argReduction(v.fn));
    if (how === "partials") partialsArrays(ctx, v, !!argReduction(v.fn));
    uniformArray(ctx, v);
    return;
  }
  const how = rowReduction(ctx, v);
  const columns = how === "staged" ? columnPartialsTile(ctx, v) : undefined;
  const split = how === "staged" && !columns ? axisPartials(ctx, v) : undefined;
  if (columns) columnPartialsArray(ctx, v, columns);
  else if (split) axisPartialsArrays(ctx, v, split);
  else if (how === "staged") stagingArray(ctx, v.value, "x");
  if (how === "shared" || how === "resliced") rowsArray(ctx, v);
}

/** tl.sum / max / min / argmax. */
export function emitReduce(ctx: Emitter, v: Value & { op: "reduce" }): void {
  if (v.type.shape.length === 0) return reduceToScalar(ctx, v);
  return reduceAxis(ctx, v);
}

/**
 * A block to one scalar: each invocation combines its own registers, then a tree over the
 * workgroup in workgroup memory (log2(W) barrier steps). Every invocation gets the result.
 */
function reduceToScalar(ctx: Emitter, v: Value & { op: "reduce" }): void {
  const src = v.value;
  const layout = ctx.layout(src.type);
  const t = ctx.typeOf(src.type);
  const dtype = ctx.dtype(src.type);
  const w = ctx.workgroupSize;
  const p = ctx.fresh("part");
  const arg = argReduction(v.fn);
  const argmax = arg !== undefined;
  const gt = arg?.better ?? ">";
  const pi = `${p}_i`;
  ctx.emit(`var ${p}: ${t} = ${identity(v.fn, dtype)};`);
  if (argmax) ctx.emit(`var ${pi}: i32 = 2147483647;`);
  const take = (j: number) => {
    const x = ctx.reg(src, j);
    if (!argmax) return ctx.emit(`${p} = ${combine(v.fn, p, x)};`);
    const e = ctx.elementIndex(src.type, j);
    ctx.emit(`if (${x} ${gt} ${p} || (${x} == ${p} && ${e} < ${pi})) { ${p} = ${x}; ${pi} = ${e}; }`);
  };
  // Where several invocations hold each element, only the first copy counts.
  const owner = layout.replicated ? `lid < ${layout.numel}u` : layout.rowSlice ? ctx.ownerCondition(src.type) : undefined;
  if (owner) {
    ctx.emit(`if (${owner}) {`);
    ctx.nested(() => {
      for (let j = 0; j < layout.ept; j++) take(j);
    });
    ctx.emit("}");
  } else {
    for (let j = 0; j < layout.ept; j++) take(j);
  }
  const how = scalarReduction(ctx, v);
  if (how === "registers") {
    defineReduced(ctx, v, argmax ? pi : p);
    return;
  }
  if (how !== "tree" && ctx.useSubgroups()) return subgroupReduce(ctx, v, p, pi);
  const [sm, smi] = treeArrays(ctx, v, !!argReduction(v.fn));
  ctx.emit("workgroupBarrier();");
  ctx.emit(`${sm}[lid] = ${p};`);
  if (argmax) ctx.emit(`${smi}[lid] = ${pi};`);
  for (let s = w / 2; s >= 1; s /= 2) {
    ctx.emit("workgroupBarrier();");
    ctx.emit(`if (lid < ${s}u) {`);
    ctx.nested(() => {
      if (!argmax) {
        ctx.emit(`${sm}[lid] = ${combine(v.fn, `${sm}[lid]`, `${sm}[lid + ${s}u]`)};`);
        return;
      }
      ctx.emit(`let b = ${sm}[lid + ${s}u];`);
      ctx.emit(`let bi = ${smi}[lid + ${s}u];`);
      ctx.emit(`if (b ${gt} ${sm}[lid] || (b == ${sm}[lid] && bi < ${smi}[lid])) { ${sm}[lid] = b; ${smi}[lid] = bi; }`);
    });
    ctx.emit("}");
  }
  ctx.emit("workgroupBarrier();");
  defineReduced(ctx, v, argmax ? `${smi}[0]` : `${sm}[0]`);
}

/**
 * The cross-invocation step with subgroup operations: one subgroupAdd/Max/Min (every lane gets
 * its subgroup's result), the first lane of each subgroup writes it to workgroup memory, and after
 * one barrier every invocation combines the W / subgroup-size partials (the same addresses for
 * all, so reads broadcast). One barrier instead of log2(W). Subgroups are taken to be consecutive
 * runs of local_invocation_index, as on every Vulkan, Metal and D3D12 driver we know of.
 *
 * Two cases need less (bench/NOTES.md §3): a workgroup no larger than the adapter's smallest
 * subgroup is one subgroup, so the subgroup operation is the whole reduction (no barrier, no
 * workgroup memory); and outside loops each reduction gets its own partials array, which nobody
 * has read yet, so the barrier that protects a shared array from earlier readers is not needed.
 */
function subgroupReduce(ctx: Emitter, v: Value & { op: "reduce" }, p: string, pi: string): void {
  const t = ctx.typeOf(v.value.type);
  const w = ctx.workgroupSize;
  const g = ctx.fresh("sg");
  const arg = argReduction(v.fn);
  const argmax = arg !== undefined;
  const gt = arg?.better ?? ">";
  const fn = v.fn;
  if (argmax) {
    ctx.emit(`let ${g} = ${REDUCE_WGSL[fn].subgroup}(${p});`);
    ctx.emit(`let ${g}_i = subgroupMin(select(2147483647, ${pi}, ${p} == ${g}));`);
  } else {
    ctx.emit(`let ${g} = ${REDUCE_WGSL[fn].subgroup}(${p});`);
  }
  if (w <= ctx.subgroupMinSize) {
    defineReduced(ctx, v, argmax ? `${g}_i` : g);
    return;
  }
  const [sm, smi] = partialsArrays(ctx, v, !!argReduction(v.fn));
  if (sharedPartials(ctx)) ctx.emit("workgroupBarrier();");
  ctx.emit(`if (sg_lane == 0u) { ${sm}[lid / sg_size] = ${g};${argmax ? ` ${smi}[lid / sg_size] = ${g}_i;` : ""} }`);
  ctx.emit("workgroupBarrier();");
  if (argmax) {
    ctx.emit(`var ${g}_best: ${t} = ${sm}[0];`);
    ctx.emit(`var ${g}_bi: i32 = ${smi}[0];`);
    ctx.emit(`for (var s = 1u; s < ${w}u / sg_size; s++) {`);
    ctx.nested(() => ctx.emit(`if (${sm}[s] ${gt} ${g}_best || (${sm}[s] == ${g}_best && ${smi}[s] < ${g}_bi)) { ${g}_best = ${sm}[s]; ${g}_bi = ${smi}[s]; }`));
    ctx.emit("}");
    defineReduced(ctx, v, `${g}_bi`);
    return;
  }
  ctx.emit(`var ${g}_all: ${t} = ${sm}[0];`);
  ctx.emit(`for (var s = 1u; s < ${w}u / sg_size; s++) { ${g}_all = ${combine(fn, `${g}_all`, `${sm}[s]`)}; }`);
  defineReduced(ctx, v, `${g}_all`);
}

/**
 * A tiled [M, N] block along its rows into a row-slice [M] (layout.ts): each invocation combines
 * the Cc columns it holds of each of its Rt rows, then the Tc invocations of a tile row combine
 * their partials — with subgroupShuffleXor (log2(Tc) steps, no barrier, no workgroup memory)
 * where Tc is a power of two no larger than the adapter's smallest subgroup, else through an
 * [M, Tc] workgroup array (one barrier, Tc reads). Every holder of a row gets its result.
 * False when the layouts don't allow it (the caller stages the whole block instead).
 */
function reduceRows(ctx: Emitter, v: Value & { op: "reduce" }): boolean {
  const how = rowReduction(ctx, v);
  if (how === "staged") return false;
  if (how === "resliced") return reduceRowsResliced(ctx, v);
  const tile = ctx.layout(v.value.type).tile!;
  const t = ctx.typeOf(v.value.type);
  const cc = tile.colsPerThread;
  const tc = tile.threadsPerRow;
  const p = (i: number) => ctx.valueName(v, i);
  for (let i = 0; i < tile.rowsPerThread; i++) {
    const terms = Array.from({ length: cc }, (_, m) => ctx.reg(v.value, i * cc + m));
    ctx.emit(`var ${p(i)}: ${t} = ${terms.reduce((a, b) => combine(v.fn, a, b))};`);
  }
  if (how === "registers") return true;
  if (how === "shuffle" && ctx.useSubgroups()) {
    const steps = () => {
      for (let s = 1; s < tc; s *= 2) {
        for (let i = 0; i < tile.rowsPerThread; i++) ctx.emit(`${p(i)} = ${combine(v.fn, p(i), `subgroupShuffleXor(${p(i)}, ${s}u)`)};`);
      }
    };
    // An online softmax's row maximum (lazy-max.ts): a subgroup none of whose scores passes its
    // rows' running maximum by LAZY_SLACK keeps it, without the shuffles. A row's Tc invocations
    // are in one subgroup (Tc ≤ the smallest subgroup, aligned), so they take the same way.
    const floor = v.fn === "max" ? ctx.lazyFloor(v) : undefined;
    if (!floor) {
      steps();
      return true;
    }
    const passes = Array.from({ length: tile.rowsPerThread }, (_, i) => `${p(i)} > ${ctx.reg(floor, i)} + ${LAZY_SLACK}.0`);
    ctx.emit(`if (subgroupAny(${passes.join(" || ")})) {`);
    ctx.nested(steps);
    ctx.emit("} else {");
    ctx.nested(() => {
      for (let i = 0; i < tile.rowsPerThread; i++) ctx.emit(`${p(i)} = ${ctx.reg(floor, i)};`);
    });
    ctx.emit("}");
    return true;
  }
  const sm = rowsArray(ctx, v);
  if (sharedPartials(ctx)) ctx.emit("workgroupBarrier();");
  const row = (i: number) => ctx.elementIndex(v.type, i);
  for (let i = 0; i < tile.rowsPerThread; i++) ctx.emit(`${sm}[${row(i)} * ${tc} + i32(lid % ${tc}u)] = ${p(i)};`);
  ctx.emit("workgroupBarrier();");
  for (let i = 0; i < tile.rowsPerThread; i++) {
    const terms = Array.from({ length: tc }, (_, c) => `${sm}[${row(i)} * ${tc} + ${c}]`);
    ctx.emit(`${p(i)} = ${terms.reduce((a, b) => combine(v.fn, a, b))};`);
  }
  return true;
}

/**
 * A tiled block whose rows the result's layout doesn't hold as the tile does (vllm's prefix_prefill:
 * the [M] running maximum takes the row slice of the context loop's [M, 32] tile, and the causal
 * loop reduces an [M, 64] tile laid out otherwise): each invocation combines its registers per tile
 * row, the partials go through an [M, Tc] array by the tile's own rows, and each output element
 * folds its row's Tc partials, in whatever layout the result has — M * Tc elements of workgroup
 * memory where staging the block took M * N.
 */
function reduceRowsResliced(ctx: Emitter, v: Value & { op: "reduce" }): boolean {
  const tile = ctx.layout(v.value.type).tile!;
  const t = ctx.typeOf(v.value.type);
  const cc = tile.colsPerThread;
  const tc = tile.threadsPerRow;
  const source = rowSliceOf(tile);
  const w = ctx.workgroupSize;
  const sm = rowsArray(ctx, v);
  const partial = ctx.fresh("rowpart");
  ctx.emit("workgroupBarrier();");
  for (let i = 0; i < tile.rowsPerThread; i++) {
    const terms = Array.from({ length: cc }, (_, m) => ctx.reg(v.value, i * cc + m));
    const row = `(${rowSliceOffset(source, w, i)} + i32(lid / ${tc}u) * ${pieceRows(source)})`;
    ctx.emit(`let ${partial}_${i}: ${t} = ${terms.reduce((a, b) => combine(v.fn, a, b))};`);
    ctx.emit(`${sm}[${row} * ${tc} + i32(lid % ${tc}u)] = ${partial}_${i};`);
  }
  ctx.emit("workgroupBarrier();");
  const out = ctx.layout(v.type);
  for (let j = 0; j < out.ept; j++) {
    const row = ctx.elementIndex(v.type, j);
    const terms = Array.from({ length: tc }, (_, c) => `${sm}[(${row}) * ${tc} + ${c}]`);
    ctx.emit(`var ${ctx.valueName(v, j)}: ${t} = ${terms.reduce((a, b) => combine(v.fn, a, b))};`);
  }
  return true;
}

/**
 * How reduceRows combines a tiled block along its rows: not at all (the layouts don't allow it: the
 * block is staged whole), in registers (one invocation per tile row), by subgroup shuffles, through
 * an [M, Tc] array, or through that array by the tile's rows into another layout of the result
 * (resliced).
 */
function rowReduction(ctx: ArrayFacts, v: Value & { op: "reduce" }): "staged" | "registers" | "shuffle" | "shared" | "resliced" {
  const tile = ctx.layout(v.value.type).tile;
  const dtype = ctx.dtype(v.value.type);
  if (v.axis !== 1 || !tile || argReduction(v.fn) || dtype === "bool") return "staged";
  if (!sliceMatchesTile(ctx.layout(v.type).rowSlice, tile)) return ctx.layout(v.type).rowSlice && tile.rows * tile.threadsPerRow < tile.rows * tile.cols ? "resliced" : "staged";
  const tc = tile.threadsPerRow;
  if (tc === 1) return "registers";
  return (tc & (tc - 1)) === 0 && tc <= ctx.subgroupMinSize && dtype !== "f16" && ctx.hasSubgroups ? "shuffle" : "shared";
}


/**
 * A block of 2 or 3 axes along one: a tiled block along its rows in registers (reduceRows), along its
 * columns through its invocations' column partials (column-partials.ts); a flat one, where its layout
 * allows, through the invocations' partials (axis-partials.ts); else staged whole in workgroup memory,
 * each output element looping over the axis.
 */
function reduceAxis(ctx: Emitter, v: Value & { op: "reduce" }): void {
  if (reduceRows(ctx, v)) return;
  const columns = columnPartialsTile(ctx, v);
  if (columns) return emitColumnPartials(ctx, v, columns, identity(v.fn, ctx.dtype(v.value.type)), (a, b) => combine(v.fn, a, b));
  const split = axisPartials(ctx, v);
  if (split) return emitAxisPartials(ctx, v, split, identity(v.fn, ctx.dtype(v.value.type)), (a, b) => combine(v.fn, a, b), argReduction(v.fn)?.better);
  const src = v.value;
  const shape = src.type.shape;
  const [m, n] = shape;
  const t = ctx.typeOf(src.type);
  const dtype = ctx.dtype(src.type);
  ctx.emit("workgroupBarrier();");
  const array = stage(ctx, src, "x");
  ctx.emit("workgroupBarrier();");
  const out = ctx.layout(v.type);
  const length = shape[v.axis];
  // Element (o, k, i) of the axis's lines is (o * length + k) * inner + i (2-D: the row or the column).
  const inner = shape.slice(v.axis + 1).reduce((a, b) => a * b, 1);
  for (let j = 0; j < out.ept; j++) {
    const e = ctx.elementIndex(v.type, j);
    const name = ctx.valueName(v, j);
    const acc = ctx.fresh("acc");
    const index = (k: string) =>
      shape.length === 2 ? (v.axis === 0 ? `${k} * ${n} + ${e}` : `${e} * ${n} + ${k}`) : `((${e}) / ${inner} * ${length} + ${k}) * ${inner} + (${e}) % ${inner}`;
    ctx.emit(`var ${acc}: ${t} = ${identity(v.fn, dtype)};`);
    const arg = argReduction(v.fn);
    if (arg) ctx.emit(`var ${acc}_i: i32 = 0;`);
    ctx.emit(`for (var k: i32 = 0; k < ${length}; k++) {`);
    ctx.nested(() => {
      const x = `${array}[${index("k")}]`;
      if (arg) ctx.emit(`if (${x} ${arg.better} ${acc}) { ${acc} = ${x}; ${acc}_i = k; }`);
      else ctx.emit(`${acc} = ${combine(v.fn, acc, x)};`);
    });
    ctx.emit("}");
    ctx.emit(`let ${name} = ${arg ? `${acc}_i` : acc};`);
  }
}
