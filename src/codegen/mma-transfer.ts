// Moving a block between registers and workgroup memory for tl.dot on subgroup matrices (mma.ts):
// an operand's registers staged as halves in padded rows, and the accumulator moved between
// registers and matrices a few rows at a time (matrix elements cannot be addressed).

import type { Value } from "../ir/ir";
import type { Emitter } from "./emitter";
import { pieceCols, pieceRows, runSpan, tileOffset } from "./layout";
import type { MatrixOps } from "./mma-ops";
import { names, transferShape, type MmaPlan } from "./mma-plan";

/**
 * Where each register of a 2-D block goes in a row-major array of `stride` elements per row: one
 * per-invocation base (emitted once) plus a constant per register, or a whole expression where
 * the layout gives no such split (replicated blocks). Also each register's row offset from the
 * base's row, for a transfer that moves some rows at a time.
 */
function paddedPlaces(ctx: Emitter, v: Value, stride: number, flatIndex: boolean): { index: (j: number) => string; rowOf: (j: number) => string; owner?: string } {
  const layout = ctx.layout(v.type);
  const cols = v.type.shape[1];
  const w = ctx.workgroupSize;
  const plus = (base: string, c: number) => (c ? `${base} + ${c}u` : base);
  // The invocation's first row and column are written from `lid` itself, not from its flat index
  // (`tileBase`, `lane4`) by `/ cols` and `% cols`: Tint then knows each index below the array's
  // length and leaves the stores unclamped (a clamped one is a single STS.U16 on NVIDIA; bench/NOTES.md §60).
  const times = (x: string, n: number) => (n === 1 ? x : `${x} * ${n}u`);
  if (layout.tile) {
    const tile = layout.tile;
    const tc = tile.threadsPerRow;
    const [row0, base] = [ctx.fresh("mr"), ctx.fresh("mb")];
    if (flatIndex) {
      // As before 2026-12-06 (CodegenOptions.mmaStagingFlatIndex): Tint clamps the stores it cannot bound.
      const t = ctx.tileBase(layout);
      ctx.emit(`let ${row0} = u32(${t}) / ${cols}u;`);
      ctx.emit(`let ${base} = ${row0} * ${stride}u + u32(${t}) % ${cols}u;`);
    } else {
      ctx.emit(`let ${row0} = ${times(tc === 1 ? "lid" : `(lid / ${tc}u)`, pieceRows(tile))};`);
      ctx.emit(`let ${base} = ${row0} * ${stride}u${tc === 1 ? "" : ` + ${times(`(lid % ${tc}u)`, pieceCols(tile))}`};`);
    }
    const split = (j: number) => {
      const offset = tileOffset(tile, w, j);
      return [Math.floor(offset / cols), offset % cols];
    };
    return { index: (j) => plus(base, split(j)[0] * stride + split(j)[1]), rowOf: (j) => plus(row0, split(j)[0]) };
  }
  const vec = runSpan(layout);
  if (!layout.replicated && cols % vec === 0 && (w * vec) % cols === 0) {
    // Register j: element (j / V) * W * V + t * V + j % V (V the run span, layout.ts); a sweep of W * V
    // elements is whole rows, of cols / V invocations each.
    // (A row slice's first element is not lid * V: it keeps its flat index.)
    const perRow = cols / vec;
    const lane = ctx.elementIndex(v.type, 0);
    const [row0, base] = [ctx.fresh("mr"), ctx.fresh("mb")];
    if (layout.rowSlice || flatIndex) {
      ctx.emit(`let ${row0} = u32(${lane}) / ${cols}u;`);
      ctx.emit(`let ${base} = ${row0} * ${stride}u + u32(${lane}) % ${cols}u;`);
    } else {
      ctx.emit(`let ${row0} = ${perRow === 1 ? "lid" : `lid / ${perRow}u`};`);
      ctx.emit(`let ${base} = ${row0} * ${stride}u${perRow === 1 ? "" : ` + ${times(`(lid % ${perRow}u)`, vec)}`};`);
    }
    const rows = (j: number) => (Math.floor(j / vec) * w * vec) / cols;
    return { index: (j) => plus(base, rows(j) * stride + (j % vec)), rowOf: (j) => plus(row0, rows(j)) };
  }
  const element = (j: number) => `u32(${ctx.elementIndex(v.type, j)})`;
  return {
    index: (j) => `${element(j)} / ${cols}u * ${stride}u + ${element(j)} % ${cols}u`,
    rowOf: (j) => `${element(j)} / ${cols}u`,
    owner: layout.replicated ? `lid < ${layout.numel}u` : ctx.ownerCondition(v.type),
  };
}

/** Writes an operand's registers into `array` (rows of `stride` halves from `offset`). */
export function stage(ctx: Emitter, v: Value, array: string, stride: number, offset: string, flatIndex: boolean): void {
  const places = paddedPlaces(ctx, v, stride, flatIndex);
  const writes = () => {
    for (let j = 0; j < ctx.layout(v.type).ept; j++) ctx.emit(`${array}[${offset ? `${offset} + ` : ""}${places.index(j)}] = ${ctx.reg(v, j)};`);
  };
  if (!places.owner) return writes();
  ctx.emit(`if (${places.owner}) {`);
  ctx.nested(writes);
  ctx.emit("}");
}

/**
 * Moves the accumulator between registers and matrices, `chunk` rows at a time through a
 * workgroup array: registers → array → matrices ("load") or matrices → array → registers
 * ("store"; `add(j)`, when given, is added to register j as it is written).
 */
export function transfer(ctx: Emitter, ops: MatrixOps, plan: MmaPlan, direction: "load" | "store", register: (j: number) => string, add?: (j: number) => string): void {
  const out = plan.dot;
  const [m, n] = out.type.shape;
  const { acc, row, col } = names(plan);
  const { config } = plan;
  const shape = transferShape(plan);
  if (shape.columns && direction === "store") return storeColumns(ctx, ops, plan, register, add);
  const { stride, chunk } = shape;
  const array = ctx.scratch("mmac", "f32", shape.floats);
  const whole = chunk === m;
  const counter = whole ? "0u" : ctx.fresh("mma_rows");
  const places = paddedPlaces(ctx, out, stride, plan.stagingFlatIndex);
  const layout = ctx.layout(out.type);
  // `ch`: the chunk's first row (a WGSL expression).
  const registers = (ch: string) => {
    const guard = (j: number, body: string) => {
      const conditions = [...(whole ? [] : [`${places.rowOf(j)} - ${ch} < ${chunk}u`]), ...(places.owner && direction === "load" ? [places.owner] : [])];
      ctx.emit(conditions.length ? `if (${conditions.join(" && ")}) { ${body} }` : body);
    };
    for (let j = 0; j < layout.ept; j++) {
      const at = `${array}[${places.index(j)}${whole ? "" : ` - ${ch} * ${stride}u`}]`;
      guard(j, direction === "load" ? `${at} = ${register(j)};` : `${register(j)} = ${at}${add ? ` + ${add(j)}` : ""};`);
    }
  };
  const matrices = (ch: string) => {
    for (let i = 0; i < plan.tilesM; i++) {
      for (let t = 0; t < plan.tilesN; t++) {
        const r = `${row} + ${i * config.M}u`;
        const offset = `(${r} - ${ch}) * ${stride}u + ${col} + ${t * config.N}u`;
        const matrix = `${acc}[${i * plan.tilesN + t}]`;
        // Uniform in the subgroup (its rows), as the matrix operations need.
        const op = () => (direction === "load" ? ops.loadResult(matrix, array, offset, stride, config) : ops.storeResult(array, offset, matrix, stride, config));
        if (whole) op();
        else {
          ctx.emit(`if (${r} - ${ch} < ${chunk}u) {`);
          ctx.nested(op);
          ctx.emit("}");
        }
      }
    }
  };
  const body = (ch: string, first: boolean) => {
    // Lean (mma.ts): before the first chunk, the barrier after this dot's staging already follows
    // every earlier read of the array; between chunks the last chunk's reads need one.
    if (!(first && plan.lean && direction === "store")) ctx.emit("workgroupBarrier();");
    if (direction === "load") registers(ch);
    else matrices(ch);
    ctx.emit("workgroupBarrier();");
    if (direction === "load") matrices(ch);
    else registers(ch);
  };
  if (whole) return body("0u", true);
  if (plan.lean && direction === "store") {
    // The chunks written out, so that only the first goes without its barrier.
    for (let c = 0; c < m; c += chunk) body(`${c}u`, c === 0);
    return;
  }
  ctx.emit(`for (var ${counter} = 0u; ${counter} < ${m}u; ${counter} += ${chunk}u) {`);
  ctx.nested(() => body(counter, false));
  ctx.emit("}");
}

/**
 * The product leaving the matrices a few columns of every row at a time (MmaPlan.columnChunks: its
 * registers one row per invocation, register j column j), so that each invocation reads its row's
 * part of every chunk, at places and into registers known when compiling: one row base, no
 * conditions (bench/flash-kernels.ts's rounds of column matrices).
 */
function storeColumns(ctx: Emitter, ops: MatrixOps, plan: MmaPlan, register: (j: number) => string, add?: (j: number) => string): void {
  const out = plan.dot;
  const [m, n] = out.type.shape;
  const { acc, row, col } = names(plan);
  const { config } = plan;
  const { stride, chunk, floats } = transferShape(plan);
  const layout = ctx.layout(out.type);
  if (layout.tile?.rowsPerThread !== 1 || layout.tile.threadsPerRow !== 1 || layout.tile.rows !== m) throw new Error("column chunks need the product one row per invocation (lane rows)");
  const array = ctx.scratch("mmac", "f32", floats);
  const base = ctx.fresh("mb");
  ctx.emit(`let ${base} = u32(${ctx.tileBase(layout)}) / ${n}u * ${stride}u;`);
  for (let c0 = 0; c0 < n; c0 += chunk) {
    // Lean: before the first chunk, the barrier after this dot's staging already follows every
    // earlier read of the array; before each later one, the last chunk's reads need one.
    if (!(c0 === 0 && plan.lean)) ctx.emit("workgroupBarrier();");
    for (let i = 0; i < plan.tilesM; i++) {
      for (let t = 0; t < plan.tilesN; t++) {
        const c = `${col} + ${t * config.N}u`;
        const offset = `(${row} + ${i * config.M}u) * ${stride}u + ${c} - ${c0}u`;
        const matrix = `${acc}[${i * plan.tilesN + t}]`;
        // Uniform in the subgroup (its columns), as the matrix operations need.
        ctx.emit(`if (${c} - ${c0}u < ${chunk}u) {`);
        ctx.nested(() => ops.storeResult(array, offset, matrix, stride, config));
        ctx.emit("}");
      }
    }
    ctx.emit("workgroupBarrier();");
    for (let j = c0; j < Math.min(n, c0 + chunk); j++) {
      const at = `${array}[${j === c0 ? base : `${base} + ${j - c0}u`}]`;
      ctx.emit(`${register(j)} = ${at}${add ? ` + ${add(j)}` : ""};`);
    }
  }
}
