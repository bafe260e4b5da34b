// tl.dot: both operands staged in workgroup memory, then each invocation accumulates its own
// output registers over K (tiled layouts: vec4 reads of A's rows and B's columns per k).

import type { KernelIR, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";
import type { Emitter } from "./emitter";
import { registerOffset, tileOffset, tileSpans, type BlockLayout } from "./layout";
import { emitMmaDot } from "./mma";
import { stage, writeElements } from "./rearrange";
import { isTiledDotLayout, NO_PAD, transposedSource, type Pad } from "./dot-staging";
import { eachChunk, stageChunk } from "./dot-chunks";

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
  // How A and B are staged (dot-staging.ts, decided by the plan). f16 operands are staged as
  // halves (half the workgroup memory) and widened as they are read.
  const { dtype, pad, sizeA, double, own, chunk } = ctx.tiledDotStaging(v);
  // An operand written tl.trans(x) is staged from x's registers (no transpose of its own, values.ts).
  const a = transposedSource(v.a);
  const b = transposedSource(v.b);
  const sa = ctx.scratch(own ? `d${v.id}a` : "a", dtype, (double ? 2 : 1) * sizeA, true);
  const sb = ctx.scratch(own ? `d${v.id}b` : "b", dtype, (double ? 2 : 1) * chunk * n, true);
  const widen = (read: string) => (dtype === "f16" ? `vec4<f32>(${read})` : read);
  const half = double ? ctx.fresh("dot_half") : "";
  if (double) ctx.declareVar(half, "u32", "0u");
  const offsets = { a: "", b: "" };
  if (double) {
    offsets.a = ctx.fresh("dot_oa");
    offsets.b = ctx.fresh("dot_ob");
    ctx.emit(`let ${offsets.a} = i32(${half}) * ${sizeA};`);
    ctx.emit(`let ${offsets.b} = i32(${half}) * ${k * n};`);
  }
  const out = ctx.layout(v.type);
  const acc = (j: number) => ctx.valueName(v, j);
  const chunked = chunk < k;
  if (chunked) {
    for (let j = 0; j < out.ept; j++) ctx.emit(`var ${acc(j)}: f32 = ${v.acc ? ctx.reg(v.acc, j) : "0.0f"};`);
  } else {
    if (!own) ctx.emit("workgroupBarrier();");
    if (a) stageOperand(ctx, a, sa, dtype, undefined, offsets.a);
    else stageOperand(ctx, v.a, sa, dtype, { rows: m, pad }, offsets.a);
    if (b) stageOperand(ctx, b, sb, dtype, { rows: n, pad: NO_PAD }, offsets.b);
    else stageOperand(ctx, v.b, sb, dtype, undefined, offsets.b);
    ctx.emit("workgroupBarrier();");
    for (let j = 0; j < out.ept; j++) ctx.emit(`var ${acc(j)}: f32 = ${v.acc ? ctx.reg(v.acc, j) : "0.0f"};`);
  }
  const base = ctx.tileBase(out);
  // The vec4 index of this invocation's first row of A and column of B at k = 0 (both multiples
  // of 4, layout.ts), so each read in the loop is one multiply-add of unsigned indices.
  const r0 = ctx.fresh("dot_r");
  const c0 = ctx.fresh("dot_c");
  ctx.emit(`let ${r0} = u32(${base} / ${n}) / 4u${double ? ` + ${half} * ${sizeA / 4}u` : ""};`);
  ctx.emit(`let ${c0} = u32(${base} % ${n}) / 4u${double ? ` + ${half} * ${(k * n) / 4}u` : ""};`);
  if (double) ctx.emit(`${half} = ${half} ^ 1u;`);
  const spans = tileSpans(tile, ctx.workgroupSize);
  // Row kk of staged A starts at vec4 kk * m / 4 + pad(kk) / 4: a constant when the loop is written out.
  const rowA = (kk: number | "kk") => {
    if (kk !== "kk") return `${(kk * m + pad.of(kk)) / 4}u`;
    const shift = pad.expr("kk");
    return `kk * ${m / 4}u${shift ? ` + (${shift}) / 4u` : ""}`;
  };
  const step = (kk: number | "kk") => {
    for (let g = 0; g < tile.rowsPerThread / 4; g++) ctx.emit(`let a${g} = ${widen(`${sa}[${rowA(kk)} + ${r0} + ${(g * spans.row) / 4}u]`)};`);
    for (let h = 0; h < tile.colsPerThread / 4; h++) ctx.emit(`let b${h} = ${widen(`${sb}[${kk} * ${n / 4}u + ${c0} + ${(h * spans.col) / 4}u]`)};`);
    for (let i = 0; i < tile.rowsPerThread; i++) {
      for (let c = 0; c < tile.colsPerThread; c++) {
        const j = i * tile.colsPerThread + c;
        ctx.emit(`${acc(j)} = fma(a${i >> 2}[${i & 3}], b${c >> 2}[${c & 3}], ${acc(j)});`);
      }
    }
  };
  const steps = () => {
    if (ctx.unrollDot) {
      for (let kk = 0; kk < chunk; kk++) {
        ctx.emit("{");
        ctx.nested(() => step(kk));
        ctx.emit("}");
      }
      return;
    }
    ctx.emit(`for (var kk = 0u; kk < ${chunk}u; kk++) {`);
    ctx.nested(() => step("kk"));
    ctx.emit("}");
  };
  if (!chunked) return steps();
  // A chunk of A staged transposed (row kk of the chunk holds A's column kk), B's rows as they are.
  const vec = (array: string) => (index: string, value: string) => `${array}[${index} >> 2u][${index} & 3] = ${value};`;
  eachChunk(ctx, v, chunk, (c) => {
    stageChunk(ctx, v.a, "a", chunk, c, (kk, row) => `${kk} * ${m} + ${row}`, vec(sa));
    stageChunk(ctx, v.b, "b", chunk, c, (kk, col) => `${kk} * ${n} + ${col}`, vec(sb));
  }, steps);
}

/**
 * The tl.trans values whose every use is as an operand of a tl.dot: every path of the dot stages
 * them from the registers of what they transpose (or loads that column-major, mma.ts), so they
 * need no WGSL of their own (values.ts skips them).
 */
export function dotOnlyTransposes(ir: KernelIR): Set<number> {
  const candidates = new Set<number>();
  // A 2-D tl.trans nothing uses (the semantics' builder turned a cast of it into a transpose of
  // the cast, builder.ts) needs no WGSL either.
  forEachValue(ir.body, (v) => {
    if (v.op === "trans" && transposedSource(v)) candidates.add(v.id);
  });
  forEachValue(ir.body, (v) => {
    for (const o of operandsOf(v)) if (candidates.has(o.id) && !(v.op === "dot" && o !== v.acc)) candidates.delete(o.id);
  });
  forEachStmt(ir.body, (s) => {
    if (s.kind !== "let") for (const v of valuesOfStmt(s)) candidates.delete(v.id);
  });
  return candidates;
}

/**
 * Writes one tl.dot operand into its workgroup array: B (`transposed` undefined) as it is, A
 * transposed into rows of `transposed.rows` elements, row kk shifted by pad(kk). Four registers
 * that land in one aligned vec4 are written as one vec4: runs of 4 along B's rows; in a tiled A,
 * the 4 rows of a piece, which become 4 consecutive elements of a transposed row.
 */
function stageOperand(ctx: Emitter, operand: Value, array: string, dtype: "f16" | "f32", transposed: { rows: number; pad: Pad } | undefined, offset: string): void {
  const layout = ctx.layout(operand.type);
  const cols = operand.type.shape[1];
  const w = ctx.workgroupSize;
  const at = (index: string) => (offset ? `${offset} + ${index}` : index);
  // Where A's element (row, col) goes: transposed, its rows shifted (B's element e goes to e).
  const destination = (t: { rows: number; pad: Pad }, row: string, col: string) => {
    const pad = t.pad.expr(`u32(${col})`);
    return `${col} * ${t.rows}${pad ? ` + i32(${pad})` : ""} + ${row}`;
  };
  const vec4 = (regs: number[]) => `vec4<${dtype}>(${regs.map((j) => ctx.reg(operand, j)).join(", ")})`;
  // Every index below is one per-invocation base (a let the driver keeps in one register) plus
  // constants, so that a store's address costs no registers of its own.
  const base = (expr: string, vector: boolean) => {
    const name = ctx.fresh("st");
    ctx.emit(`let ${name} = ${vector ? `u32(${at(expr)}) >> 2u` : at(expr)};`);
    return name;
  };
  const whole = !layout.replicated && !ctx.ownerCondition(operand.type);
  const e0 = ctx.elementIndex(operand.type, 0);
  const [row0, col0] = [`(${e0} / ${cols})`, `(${e0} % ${cols})`];
  if (whole && !transposed && (layout.tile || layout.vec === 4) && cols % 4 === 0) {
    // Runs of 4 along a row: element index e0 + a constant that is a multiple of 4.
    const b = base(e0, true);
    for (let j = 0; j < layout.ept; j += 4) {
      const offsetJ = layout.tile ? tileOffset(layout.tile, w, j) : registerOffset(layout, w, j);
      ctx.emit(`${array}[${b}${offsetJ ? ` + ${offsetJ / 4}u` : ""}] = ${vec4([j, j + 1, j + 2, j + 3])};`);
    }
    return;
  }
  if (whole && transposed && layout.tile && layout.tile.rowsPerThread % 4 === 0) {
    // A piece's 4 rows at one column are 4 consecutive elements of a transposed row: one vec4.
    const { rowsPerThread: rt, colsPerThread: cc } = layout.tile;
    const spans = tileSpans(layout.tile, w);
    for (let p = 0; p < cc / 4; p++) {
      const b = base(destination(transposed, row0, p ? `(${col0} + ${p * spans.col})` : col0), true);
      for (let g = 0; g < rt / 4; g++) {
        for (let c = 0; c < 4; c++) {
          const j = 4 * g * cc + 4 * p + c;
          const constant = (c * transposed.rows + g * spans.row) / 4;
          ctx.emit(`${array}[${b}${constant ? ` + ${constant}u` : ""}] = ${vec4([j, j + cc, j + 2 * cc, j + 3 * cc])};`);
        }
      }
    }
    return;
  }
  const runRows = (w * 4) / cols;
  if (whole && transposed && !layout.tile && layout.vec === 4 && cols % 4 === 0 && Number.isInteger(runRows) && runRows % 4 === 0) {
    // Runs of 4 along A's rows (register q * 4 + l: row row0 + q * runRows, column col0 + l),
    // written one element at a time down the transposed rows.
    const b = base(destination(transposed, row0, col0), false);
    const [vec, lane] = [ctx.fresh("stv"), ctx.fresh("stl")];
    ctx.emit(`let ${vec} = u32(${b}) >> 2u;`);
    ctx.emit(`let ${lane} = u32(${b}) & 3u;`);
    for (let j = 0; j < layout.ept; j++) {
      const constant = ((j % 4) * transposed.rows + Math.floor(j / 4) * runRows) / 4;
      ctx.emit(`${array}[${vec}${constant ? ` + ${constant}u` : ""}][${lane}] = ${ctx.reg(operand, j)};`);
    }
    return;
  }
  writeElements(ctx, operand, (e, value) => {
    const index = ctx.fresh("st");
    ctx.emit(`let ${index} = ${at(transposed ? destination(transposed, `((${e}) / ${cols})`, `((${e}) % ${cols})`) : e)};`);
    ctx.emit(`${array}[${index} >> 2u][${index} & 3] = ${value};`);
  });
}

/** An operand of the flat path into a row-major scratch array; tl.trans(x) from x's registers, written transposed. */
function stageOperandFlat(ctx: Emitter, operand: Value, slot: string): string {
  const x = transposedSource(operand);
  if (!x) return stage(ctx, operand, slot);
  const [rows, cols] = x.type.shape;
  const array = ctx.scratch(slot, ctx.dtype(operand.type), rows * cols);
  writeElements(ctx, x, (e, value) => ctx.emit(`${array}[((${e}) % ${cols}) * ${rows} + (${e}) / ${cols}] = ${value};`));
  return array;
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
  if (v.a.type.shape.length === 3) return batchedDot(ctx, v);
  const k = v.a.type.shape[1];
  const n = v.b.type.shape[1];
  const tile = ctx.layout(v.type).tile;
  if (tile && isTiledDotLayout(ctx.layout(v.type))) return tiledDot(ctx, v, tile);
  const out = ctx.layout(v.type);
  const acc = (j: number) => ctx.valueName(v, j);
  const declare = () => {
    for (let j = 0; j < out.ept; j++) ctx.emit(`var ${acc(j)}: f32 = ${v.acc ? ctx.reg(v.acc, j) : "0.0f"};`);
  };
  const chunk = ctx.flatDotChunk(v);
  if (chunk === k) {
    ctx.emit("workgroupBarrier();");
    const a = stageOperandFlat(ctx, v.a, "a");
    const b = stageOperandFlat(ctx, v.b, "b");
    ctx.emit("workgroupBarrier();");
    declare();
    return accumulateFlat(ctx, v, a, b, k);
  }
  // In chunks of K (dot-chunks.ts): A's rows `chunk` long, B's first `chunk` rows.
  const m = v.a.type.shape[0];
  const a = ctx.scratch("a", ctx.dtype(v.a.type), m * chunk);
  const b = ctx.scratch("b", ctx.dtype(v.b.type), chunk * n);
  const scalar = (array: string) => (index: string, value: string) => `${array}[${index}] = ${value};`;
  declare();
  eachChunk(ctx, v, chunk, (c) => {
    stageChunk(ctx, v.a, "a", chunk, c, (kk, row) => `${row} * ${chunk} + ${kk}`, scalar(a));
    stageChunk(ctx, v.b, "b", chunk, c, (kk, col) => `${kk} * ${n} + ${col}`, scalar(b));
  }, () => accumulateFlat(ctx, v, a, b, chunk));
}

/**
 * The flat path's multiply-adds over `k` staged columns of A (rows `k` long in `a`) and rows of B
 * (`b`). When the output layout gives every invocation a grid of distinct rows × a run of columns,
 * the A and B elements are read once per k for all of them (register blocking); otherwise each
 * register reads its own.
 */
function accumulateFlat(ctx: Emitter, v: Value & { op: "dot" }, a: string, b: string, k: number): void {
  const n = v.b.type.shape[1];
  const f32 = (read: string) => (operandDtype(ctx, v) === "f16" ? `f32(${read})` : read);
  const out = ctx.layout(v.type);
  const w = ctx.workgroupSize;
  const acc = (j: number) => ctx.valueName(v, j);
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

/**
 * A batched tl.dot, [B,M,K] x [B,K,N] (Triton's 3-D dot): both operands staged in workgroup
 * memory; each output register accumulates its row of A and column of B in its own batch.
 */
function batchedDot(ctx: Emitter, v: Value & { op: "dot" }): void {
  const [, m, k] = v.a.type.shape;
  const n = v.b.type.shape[2];
  ctx.emit("workgroupBarrier();");
  const a = stage(ctx, v.a, "a");
  const b = stage(ctx, v.b, "b");
  ctx.emit("workgroupBarrier();");
  const f32 = (read: string) => (operandDtype(ctx, v) === "f16" ? `f32(${read})` : read);
  const out = ctx.layout(v.type);
  for (let j = 0; j < out.ept; j++) {
    const acc = ctx.valueName(v, j);
    const e = ctx.elementIndex(v.type, j);
    const [batch, row, col] = [ctx.fresh("dot_b"), ctx.fresh("dot_r"), ctx.fresh("dot_c")];
    ctx.emit(`let ${batch} = (${e}) / ${m * n};`);
    ctx.emit(`let ${row} = ((${e}) / ${n}) % ${m};`);
    ctx.emit(`let ${col} = (${e}) % ${n};`);
    ctx.emit(`var ${acc}: f32 = ${v.acc ? ctx.reg(v.acc, j) : "0.0f"};`);
    ctx.emit(`for (var kk: i32 = 0; kk < ${k}; kk++) {`);
    ctx.nested(() => ctx.emit(`${acc} = fma(${f32(`${a}[(${batch} * ${m} + ${row}) * ${k} + kk]`)}, ${f32(`${b}[(${batch} * ${k} + kk) * ${n} + ${col}]`)}, ${acc});`));
    ctx.emit("}");
  }
}
