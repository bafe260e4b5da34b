// tl.dot: both operands staged in workgroup memory, then each invocation accumulates its own
// output registers over K (tiled layouts: vec4 reads of A's rows and B's columns per k).

import type { Value } from "../ir/ir";
import type { Emitter } from "./emitter";
import { tileSpans, type BlockLayout } from "./layout";
import { emitMmaDot } from "./mma";
import { stage, writeElements } from "./rearrange";

const BYTES = { f16: 2, f32: 4 } as const;

/** The dtype tl.dot's operands are staged in: both f16, or both f32 (semantics casts any other pair). */
function operandDtype(ctx: Emitter, v: Value & { op: "dot" }): "f16" | "f32" {
  return ctx.dtype(v.a.type) === "f16" ? "f16" : "f32";
}

/**
 * tl.dot into a tiled output (layout.ts): A is staged transposed and B as is, both as vec4s, so
 * for each k an invocation reads its Rt rows of A and Cc columns of B as Rt/4 + Cc/4 vec4 loads
 * and does Rt × Cc multiply-adds with them.
 */
function tiledDot(ctx: Emitter, v: Value & { op: "dot" }, tile: NonNullable<BlockLayout["tile"]>): void {
  const [m, k] = v.a.type.shape;
  const n = v.b.type.shape[1];
  // Double-buffered where two copies of both tiles fit in two thirds of the workgroup memory
  // (the rest for other dots and reductions): this dot's own arrays, the halves used in turn, so
  // the barrier before the writes is not needed — a write to a half follows the barrier of the
  // dot's previous execution, which every invocation passed only after finishing its reads of the
  // execution before that, the last one that used the same half (bench/NOTES.md §13).
  // f16 operands are staged as halves (half the workgroup memory) and widened as they are read.
  const dtype = operandDtype(ctx, v);
  const double = ctx.doubleBufferDot && 2 * (m * k + k * n) * BYTES[dtype] <= (ctx.maxWorkgroupStorageBytes * 2) / 3;
  // Arrays of its own, written without a barrier first (dot-barriers.ts), or the shared slots.
  const own = double || ctx.privateDot(v);
  const copies = double ? 2 : 1;
  const sa = ctx.scratch(own ? `d${v.id}a` : "a", dtype, copies * m * k, true);
  const sb = ctx.scratch(own ? `d${v.id}b` : "b", dtype, copies * k * n, true);
  const widen = (read: string) => (dtype === "f16" ? `vec4<f32>(${read})` : read);
  const half = double ? ctx.fresh("dot_half") : "";
  if (double) ctx.declareVar(half, "u32", "0u");
  const offsets = { a: "", b: "" };
  if (double) {
    offsets.a = ctx.fresh("dot_oa");
    offsets.b = ctx.fresh("dot_ob");
    ctx.emit(`let ${offsets.a} = i32(${half}) * ${m * k};`);
    ctx.emit(`let ${offsets.b} = i32(${half}) * ${k * n};`);
  }
  const write = (array: string, index: string, value: string) => ctx.emit(`${array}[(${index}) >> 2u][(${index}) & 3] = ${value};`);
  if (!own) ctx.emit("workgroupBarrier();");
  for (const [operand, array, transposed, offset] of [[v.a, sa, true, offsets.a], [v.b, sb, false, offsets.b]] as const) {
    const cols = operand.type.shape[1];
    const at = (index: string) => (offset ? `${offset} + ${index}` : index);
    writeElements(ctx, operand, (e, value) => write(array, at(transposed ? `(${e} % ${cols}) * ${m} + (${e}) / ${cols}` : e), value));
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
  ctx.emit(`let ${r0} = u32(${base} / ${n}) / 4u${double ? ` + ${half} * ${(m * k) / 4}u` : ""};`);
  ctx.emit(`let ${c0} = u32(${base} % ${n}) / 4u${double ? ` + ${half} * ${(k * n) / 4}u` : ""};`);
  if (double) ctx.emit(`${half} = ${half} ^ 1u;`);
  const spans = tileSpans(tile, ctx.workgroupSize);
  const step = (kk: string) => {
    for (let g = 0; g < tile.rowsPerThread / 4; g++) ctx.emit(`let a${g} = ${widen(`${sa}[${kk} * ${m / 4}u + ${r0} + ${(g * spans.row) / 4}u]`)};`);
    for (let h = 0; h < tile.colsPerThread / 4; h++) ctx.emit(`let b${h} = ${widen(`${sb}[${kk} * ${n / 4}u + ${c0} + ${(h * spans.col) / 4}u]`)};`);
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
  const plan = ctx.mmaPlan(v);
  if (plan) return emitMmaDot(ctx, plan);
  const k = v.a.type.shape[1];
  const n = v.b.type.shape[1];
  const tile = ctx.layout(v.type).tile;
  if (tile && tile.rowsPerThread % 4 === 0 && tile.colsPerThread % 4 === 0) return tiledDot(ctx, v, tile);
  ctx.emit("workgroupBarrier();");
  const a = stage(ctx, v.a, "a");
  const b = stage(ctx, v.b, "b");
  ctx.emit("workgroupBarrier();");
  const f32 = (read: string) => (operandDtype(ctx, v) === "f16" ? `f32(${read})` : read);
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
    // Named after the dot: a kernel with two tl.dot calls declares both in one scope.
    const row = `dot${v.id}_r`;
    const col = `dot${v.id}_c`;
    ctx.emit(`let ${row} = (i32(lid) * ${vec}) / ${n};`);
    ctx.emit(`let ${col} = (i32(lid) * ${vec}) % ${n};`);
    ctx.emit(`for (var kk: i32 = 0; kk < ${k}; kk++) {`);
    ctx.nested(() => {
      for (let l = 0; l < vec; l++) ctx.emit(`let b${l} = ${f32(`${b}[kk * ${n} + ${col} + ${l}]`)};`);
      for (let q = 0; q < chunks; q++) {
        ctx.emit(`let a${q} = ${f32(`${a}[(${row} + ${q * rowsPerChunk}) * ${k} + kk]`)};`);
        for (let l = 0; l < vec; l++) ctx.emit(`${acc(q * vec + l)} = fma(a${q}, b${l}, ${acc(q * vec + l)});`);
      }
    });
    ctx.emit("}");
    return;
  }
  for (let j = 0; j < out.ept; j++) {
    const e = ctx.elementIndex(v.type, j);
    ctx.emit(`for (var kk: i32 = 0; kk < ${k}; kk++) {`);
    ctx.nested(() => ctx.emit(`${acc(j)} = fma(${f32(`${a}[(${e} / ${n}) * ${k} + kk]`)}, ${f32(`${b}[kk * ${n} + ${e} % ${n}]`)}, ${acc(j)});`));
    ctx.emit("}");
  }
}
