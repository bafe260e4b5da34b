// Operations whose result elements need elements held by other invocations: broadcasts and
// transposes of loaded data, reductions, and tl.dot. They go through workgroup memory:
// every invocation writes its registers at their flat element indices, a barrier, then each
// reads what its own registers need. A barrier also comes first, so an earlier reader of the
// same scratch array is done before it is overwritten. Values computed from indices alone
// (tl.arange, scalars, arithmetic on them) are recomputed instead (`rematerialize`).

import type { Dtype, ReduceFn, Shape, Value, ValueType } from "../ir/ir";
import { numel } from "../ir/ir";
import { tileSpans, type BlockLayout } from "./layout";
import { literal } from "./literals";

/** What the collective lowering needs from the generator. */
export interface Emitter {
  readonly workgroupSize: number;
  /** The smallest subgroup the adapter runs (meaningful when useSubgroups()). */
  readonly subgroupMinSize: number;
  /** Write tl.dot's k loop out in full (Target.unrollDot). */
  readonly unrollDot: boolean;
  emit(line: string): void;
  nested(fn: () => void): void;
  reg(v: Value, j: number): string;
  layout(type: ValueType): BlockLayout;
  elementIndex(type: ValueType, j: number): string;
  typeOf(type: ValueType): string;
  dtype(type: ValueType): Dtype;
  valueName(v: Value, j: number): string;
  /** A workgroup array of at least `size` elements of `dtype` in scratch slot `slot` (as vec4s: size / 4 of them). */
  scratch(slot: string, dtype: Dtype, size: number, vec4?: boolean): string;
  /** The name of the per-invocation first flat element of a tiled layout. */
  tileBase(layout: BlockLayout): string;
  fresh(prefix: string): string;
  /** Subgroup operations are available: the shader may use `sg_lane` and `sg_size`. */
  useSubgroups(): boolean;
  /** Whether the code being emitted is inside a loop (it may run again after its own reads). */
  inLoop(): boolean;
  /** Whether a value feeds an `if` condition or a loop bound (uniformity.ts). */
  steersControl(v: Value): boolean;
}

/**
 * Defines a reduction's scalar result from `expr`, which every invocation computes alike. When it
 * steers control flow, it is passed through workgroup memory with workgroupUniformLoad so WGSL's
 * uniformity analysis accepts barriers under that control flow (one more barrier).
 */
function defineReduced(ctx: Emitter, v: Value, expr: string): void {
  if (!ctx.steersControl(v)) {
    ctx.emit(`let ${ctx.valueName(v, 0)} = ${expr};`);
    return;
  }
  const u = ctx.scratch("u", ctx.dtype(v.type), 1);
  ctx.emit(`if (lid == 0u) { ${u}[0] = ${expr}; }`);
  ctx.emit(`let ${ctx.valueName(v, 0)} = workgroupUniformLoad(&${u}[0]);`);
}

/** `[r, c]` of flat index `e` in a 2-D shape, as WGSL expressions. */
function rowCol(shape: Shape, e: string): [string, string] {
  const n = shape[shape.length - 1];
  return shape.length === 1 ? ["0", e] : [`(${e} / ${n})`, `(${e} % ${n})`];
}

/**
 * The flat index in `from` of the element a broadcast to `to` reads at flat index `e`
 * (same rank; size-1 axes of `from` stretch).
 */
function broadcastSource(from: Shape, to: Shape, e: string): string {
  if (from.length === 1) return from[0] === 1 ? "0" : e;
  const [r, c] = rowCol(to, e);
  const row = from[0] === 1 ? "0" : r;
  const col = from[1] === 1 ? "0" : c;
  return from[1] === 1 ? row : row === "0" ? col : `(${row} * ${from[1]} + ${col})`;
}

/** The flat index in the [m, n] source of a transpose's element at flat index `e` of [n, m]. */
function transposeSource(from: Shape, e: string): string {
  const [m, n] = from;
  return `((${e} % ${m}) * ${n} + ${e} / ${m})`;
}

/**
 * A WGSL expression for `v`'s element at flat index `e`, when `v` is computed from indices,
 * constants and scalars only; undefined when it depends on memory or variables.
 */
export function rematerialize(ctx: Emitter, v: Value, e: string, depth = 0): string | undefined {
  if (depth > 24) return undefined;
  if (v.type.shape.length === 0 || numel(v.type.shape) === 1) return ctx.reg(v, 0);
  const at = (x: Value, idx = e) => rematerialize(ctx, x, idx, depth + 1);
  switch (v.op) {
    case "arange":
      return v.start === 0 ? `(${e})` : `(${e} + ${literal(v.start, "i32")})`;
    case "splat":
      return ctx.reg(v.value, 0);
    case "reshape":
      return at(v.value);
    case "broadcast":
      return at(v.value, broadcastSource(v.value.type.shape, v.type.shape, e));
    case "trans":
      return at(v.value, transposeSource(v.value.type.shape, e));
    case "cast": {
      const x = at(v.value);
      return x && `${ctx.typeOf(v.type)}(${x})`;
    }
    case "ptrAdd": {
      const p = at(v.ptr);
      const o = at(v.offset);
      return p && o && `(${p} + ${o})`;
    }
    case "binary": {
      const a = at(v.lhs);
      const b = at(v.rhs);
      if (!a || !b) return undefined;
      const op = { add: "+", sub: "-", mul: "*", div: "/", mod: "%", and: "&", or: "|", xor: "^", lt: "<", le: "<=", gt: ">", ge: ">=", eq: "==", ne: "!=", land: "&&", lor: "||", shl: "<<", shr: ">>" }[v.fn];
      if (v.fn === "shl" || v.fn === "shr") return `(${a} ${op} (u32(${b}) & 31u))`;
      return `(${a} ${op} ${b})`;
    }
    case "unary": {
      const x = at(v.value);
      if (!x) return undefined;
      if (v.fn === "neg") return ctx.dtype(v.type) === "u32" ? `(0u - ${x})` : `(-${x})`;
      return v.fn === "not" ? `(!${x})` : `(~${x})`;
    }
    case "where": {
      const c = at(v.cond);
      const a = at(v.a);
      const b = at(v.b);
      return c && a && b && `select(${b}, ${a}, ${c})`;
    }
    default:
      return undefined;
  }
}

/** Writes every element of `v` into a scratch array (after a barrier) and returns its name. */
function stage(ctx: Emitter, v: Value, slot: string): string {
  const array = ctx.scratch(slot, ctx.dtype(v.type), ctx.layout(v.type).numel);
  writeElements(ctx, v, (e, value) => ctx.emit(`${array}[${e}] = ${value};`));
  return array;
}

/**
 * Calls `write` with each register's flat element index and value; for a replicated block only
 * the first copy (invocations below its element count) writes.
 */
function writeElements(ctx: Emitter, v: Value, write: (element: string, value: string) => void): void {
  const layout = ctx.layout(v.type);
  const all = () => {
    for (let j = 0; j < layout.ept; j++) write(ctx.elementIndex(v.type, j), ctx.reg(v, j));
  };
  if (!layout.replicated) return all();
  ctx.emit(`if (lid < ${layout.numel}u) {`);
  ctx.nested(all);
  ctx.emit("}");
}

/** A broadcast or transpose of a block: recomputed when possible, else through workgroup memory. */
export function emitRearrange(ctx: Emitter, v: Value & { op: "broadcast" | "trans" | "reshape" }): void {
  const layout = ctx.layout(v.type);
  const source = (e: string) => (v.op === "trans" ? transposeSource(v.value.type.shape, e) : v.op === "reshape" ? e : broadcastSource(v.value.type.shape, v.type.shape, e));
  const recomputed = Array.from({ length: layout.ept }, (_, j) => rematerialize(ctx, v, ctx.elementIndex(v.type, j)));
  if (recomputed.every((x) => x !== undefined)) {
    recomputed.forEach((x, j) => ctx.emit(`let ${ctx.valueName(v, j)} = ${x};`));
    return;
  }
  ctx.emit("workgroupBarrier();");
  const array = stage(ctx, v.value, "x");
  ctx.emit("workgroupBarrier();");
  for (let j = 0; j < layout.ept; j++) ctx.emit(`let ${ctx.valueName(v, j)} = ${array}[${source(ctx.elementIndex(v.type, j))}];`);
}

function identity(fn: ReduceFn, dtype: Dtype): string {
  if (fn === "sum") return literal(0, dtype);
  const low = fn === "max" || fn === "argmax";
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

function combine(fn: Exclude<ReduceFn, "argmax">, a: string, b: string): string {
  return fn === "sum" ? `(${a} + ${b})` : fn === "max" ? `max(${a}, ${b})` : `min(${a}, ${b})`;
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
  const argmax = v.fn === "argmax";
  const pi = `${p}_i`;
  ctx.emit(`var ${p}: ${t} = ${identity(v.fn, dtype)};`);
  if (argmax) ctx.emit(`var ${pi}: i32 = 2147483647;`);
  const take = (j: number) => {
    const x = ctx.reg(src, j);
    if (!argmax) return ctx.emit(`${p} = ${combine(v.fn as Exclude<ReduceFn, "argmax">, p, x)};`);
    const e = ctx.elementIndex(src.type, j);
    ctx.emit(`if (${x} > ${p} || (${x} == ${p} && ${e} < ${pi})) { ${p} = ${x}; ${pi} = ${e}; }`);
  };
  if (layout.replicated) {
    ctx.emit(`if (lid < ${layout.numel}u) {`);
    ctx.nested(() => take(0));
    ctx.emit("}");
  } else {
    for (let j = 0; j < layout.ept; j++) take(j);
  }
  if (w === 1) {
    defineReduced(ctx, v, argmax ? pi : p);
    return;
  }
  if (dtype !== "f16" && dtype !== "bool" && ctx.useSubgroups()) return subgroupReduce(ctx, v, p, pi);
  const sm = ctx.scratch("r", dtype, w);
  const smi = argmax ? ctx.scratch("ri", "i32", w) : "";
  ctx.emit("workgroupBarrier();");
  ctx.emit(`${sm}[lid] = ${p};`);
  if (argmax) ctx.emit(`${smi}[lid] = ${pi};`);
  for (let s = w / 2; s >= 1; s /= 2) {
    ctx.emit("workgroupBarrier();");
    ctx.emit(`if (lid < ${s}u) {`);
    ctx.nested(() => {
      if (!argmax) {
        ctx.emit(`${sm}[lid] = ${combine(v.fn as Exclude<ReduceFn, "argmax">, `${sm}[lid]`, `${sm}[lid + ${s}u]`)};`);
        return;
      }
      ctx.emit(`let b = ${sm}[lid + ${s}u];`);
      ctx.emit(`let bi = ${smi}[lid + ${s}u];`);
      ctx.emit(`if (b > ${sm}[lid] || (b == ${sm}[lid] && bi < ${smi}[lid])) { ${sm}[lid] = b; ${smi}[lid] = bi; }`);
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
  const dtype = ctx.dtype(v.value.type);
  const t = ctx.typeOf(v.value.type);
  const w = ctx.workgroupSize;
  const g = ctx.fresh("sg");
  const argmax = v.fn === "argmax";
  const fn = v.fn as Exclude<ReduceFn, "argmax">;
  if (argmax) {
    ctx.emit(`let ${g} = subgroupMax(${p});`);
    ctx.emit(`let ${g}_i = subgroupMin(select(2147483647, ${pi}, ${p} == ${g}));`);
  } else {
    ctx.emit(`let ${g} = ${{ sum: "subgroupAdd", max: "subgroupMax", min: "subgroupMin" }[fn]}(${p});`);
  }
  if (w <= ctx.subgroupMinSize) {
    defineReduced(ctx, v, argmax ? `${g}_i` : g);
    return;
  }
  const partials = Math.max(1, w / ctx.subgroupMinSize);
  const slot = ctx.inLoop() ? "r" : ctx.fresh("r");
  const sm = ctx.scratch(slot, dtype, partials);
  const smi = argmax ? ctx.scratch(`${slot}i`, "i32", partials) : "";
  if (ctx.inLoop()) ctx.emit("workgroupBarrier();");
  ctx.emit(`if (sg_lane == 0u) { ${sm}[lid / sg_size] = ${g};${argmax ? ` ${smi}[lid / sg_size] = ${g}_i;` : ""} }`);
  ctx.emit("workgroupBarrier();");
  if (argmax) {
    ctx.emit(`var ${g}_best: ${t} = ${sm}[0];`);
    ctx.emit(`var ${g}_bi: i32 = ${smi}[0];`);
    ctx.emit(`for (var s = 1u; s < ${w}u / sg_size; s++) {`);
    ctx.nested(() => ctx.emit(`if (${sm}[s] > ${g}_best || (${sm}[s] == ${g}_best && ${smi}[s] < ${g}_bi)) { ${g}_best = ${sm}[s]; ${g}_bi = ${smi}[s]; }`));
    ctx.emit("}");
    defineReduced(ctx, v, `${g}_bi`);
    return;
  }
  ctx.emit(`var ${g}_all: ${t} = ${sm}[0];`);
  ctx.emit(`for (var s = 1u; s < ${w}u / sg_size; s++) { ${g}_all = ${combine(fn, `${g}_all`, `${sm}[s]`)}; }`);
  defineReduced(ctx, v, `${g}_all`);
}

/** A 2-D block along one axis: staged in workgroup memory; each output element loops over the axis. */
function reduceAxis(ctx: Emitter, v: Value & { op: "reduce" }): void {
  const src = v.value;
  const [m, n] = src.type.shape;
  const t = ctx.typeOf(src.type);
  const dtype = ctx.dtype(src.type);
  ctx.emit("workgroupBarrier();");
  const array = stage(ctx, src, "x");
  ctx.emit("workgroupBarrier();");
  const out = ctx.layout(v.type);
  const length = v.axis === 0 ? m : n;
  for (let j = 0; j < out.ept; j++) {
    const e = ctx.elementIndex(v.type, j);
    const name = ctx.valueName(v, j);
    const acc = ctx.fresh("acc");
    const index = (k: string) => (v.axis === 0 ? `${k} * ${n} + ${e}` : `${e} * ${n} + ${k}`);
    ctx.emit(`var ${acc}: ${t} = ${identity(v.fn, dtype)};`);
    if (v.fn === "argmax") ctx.emit(`var ${acc}_i: i32 = 0;`);
    ctx.emit(`for (var k: i32 = 0; k < ${length}; k++) {`);
    ctx.nested(() => {
      const x = `${array}[${index("k")}]`;
      if (v.fn === "argmax") ctx.emit(`if (${x} > ${acc}) { ${acc} = ${x}; ${acc}_i = k; }`);
      else ctx.emit(`${acc} = ${combine(v.fn as Exclude<ReduceFn, "argmax">, acc, x)};`);
    });
    ctx.emit("}");
    ctx.emit(`let ${name} = ${v.fn === "argmax" ? `${acc}_i` : acc};`);
  }
}

/**
 * tl.dot into a tiled output (layout.ts): A is staged transposed and B as is, both as vec4s, so
 * for each k an invocation reads its Rt rows of A and Cc columns of B as Rt/4 + Cc/4 vec4 loads
 * and does Rt × Cc multiply-adds with them.
 */
function tiledDot(ctx: Emitter, v: Value & { op: "dot" }, tile: NonNullable<BlockLayout["tile"]>): void {
  const [m, k] = v.a.type.shape;
  const n = v.b.type.shape[1];
  const sa = ctx.scratch("a", "f32", m * k, true);
  const sb = ctx.scratch("b", "f32", k * n, true);
  const write = (array: string, index: string, value: string) => ctx.emit(`${array}[(${index}) >> 2u][(${index}) & 3] = ${value};`);
  ctx.emit("workgroupBarrier();");
  for (const [operand, array, transposed] of [[v.a, sa, true], [v.b, sb, false]] as const) {
    const cols = operand.type.shape[1];
    writeElements(ctx, operand, (e, value) => write(array, transposed ? `(${e} % ${cols}) * ${m} + (${e}) / ${cols}` : e, value));
  }
  ctx.emit("workgroupBarrier();");
  const out = ctx.layout(v.type);
  const acc = (j: number) => ctx.valueName(v, j);
  for (let j = 0; j < out.ept; j++) ctx.emit(`var ${acc(j)}: f32 = ${v.acc ? ctx.reg(v.acc, j) : "0.0f"};`);
  const base = ctx.tileBase(out);
  // The vec4 index of this invocation's first row of A and column of B at k = 0 (both multiples
  // of 4, layout.ts), so each read in the loop is one multiply-add of unsigned indices.
  const r0 = ctx.fresh("dot_r");
  const c0 = ctx.fresh("dot_c");
  ctx.emit(`let ${r0} = u32(${base} / ${n}) / 4u;`);
  ctx.emit(`let ${c0} = u32(${base} % ${n}) / 4u;`);
  const spans = tileSpans(tile, ctx.workgroupSize);
  const step = (kk: string) => {
    for (let g = 0; g < tile.rowsPerThread / 4; g++) ctx.emit(`let a${g} = ${sa}[${kk} * ${m / 4}u + ${r0} + ${(g * spans.row) / 4}u];`);
    for (let h = 0; h < tile.colsPerThread / 4; h++) ctx.emit(`let b${h} = ${sb}[${kk} * ${n / 4}u + ${c0} + ${(h * spans.col) / 4}u];`);
    for (let i = 0; i < tile.rowsPerThread; i++) {
      for (let c = 0; c < tile.colsPerThread; c++) {
        const j = i * tile.colsPerThread + c;
        ctx.emit(`${acc(j)} = fma(a${i >> 2}[${i & 3}], b${c >> 2}[${c & 3}], ${acc(j)});`);
      }
    }
  };
  if (ctx.unrollDot) {
    for (let kk = 0; kk < k; kk++) {
      ctx.emit("{");
      ctx.nested(() => step(`${kk}`));
      ctx.emit("}");
    }
    return;
  }
  ctx.emit(`for (var kk = 0u; kk < ${k}u; kk++) {`);
  ctx.nested(() => step("kk"));
  ctx.emit("}");
}

/**
 * tl.dot: both operands staged in workgroup memory, then each invocation accumulates its own
 * output registers over K. When the output layout gives every invocation a grid of distinct
 * rows × a run of columns, the A and B elements are read once per k for all of them
 * (register blocking); otherwise each register reads its own.
 */
export function emitDot(ctx: Emitter, v: Value & { op: "dot" }): void {
  const k = v.a.type.shape[1];
  const n = v.b.type.shape[1];
  const tile = ctx.layout(v.type).tile;
  if (tile && tile.rowsPerThread % 4 === 0 && tile.colsPerThread % 4 === 0) return tiledDot(ctx, v, tile);
  ctx.emit("workgroupBarrier();");
  const a = stage(ctx, v.a, "a");
  const b = stage(ctx, v.b, "b");
  ctx.emit("workgroupBarrier();");
  const out = ctx.layout(v.type);
  const w = ctx.workgroupSize;
  const acc = (j: number) => ctx.valueName(v, j);
  for (let j = 0; j < out.ept; j++) ctx.emit(`var ${acc(j)}: f32 = ${v.acc ? ctx.reg(v.acc, j) : "0.0f"};`);

  const vec = out.vec;
  const blocked = !out.replicated && !out.tile && n % vec === 0 && (w * vec) % n === 0;
  if (blocked) {
    // Register j = q * vec + l holds row (t*vec)/n + q*(w*vec/n), column (t*vec)%n + l.
    const rowsPerChunk = (w * vec) / n;
    const chunks = out.ept / vec;
    ctx.emit(`let dot_r = (i32(lid) * ${vec}) / ${n};`);
    ctx.emit(`let dot_c = (i32(lid) * ${vec}) % ${n};`);
    ctx.emit(`for (var kk: i32 = 0; kk < ${k}; kk++) {`);
    ctx.nested(() => {
      for (let l = 0; l < vec; l++) ctx.emit(`let b${l} = ${b}[kk * ${n} + dot_c + ${l}];`);
      for (let q = 0; q < chunks; q++) {
        ctx.emit(`let a${q} = ${a}[(dot_r + ${q * rowsPerChunk}) * ${k} + kk];`);
        for (let l = 0; l < vec; l++) ctx.emit(`${acc(q * vec + l)} = fma(a${q}, b${l}, ${acc(q * vec + l)});`);
      }
    });
    ctx.emit("}");
    return;
  }
  for (let j = 0; j < out.ept; j++) {
    const e = ctx.elementIndex(v.type, j);
    ctx.emit(`for (var kk: i32 = 0; kk < ${k}; kk++) {`);
    ctx.nested(() => ctx.emit(`${acc(j)} = fma(${a}[(${e} / ${n}) * ${k} + kk], ${b}[kk * ${n} + ${e} % ${n}], ${acc(j)});`));
    ctx.emit("}");
  }
}
