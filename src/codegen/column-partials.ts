// A tiled [M, N] block reduced along its columns (axis 0: tl.sum(x, axis=0) in a kernel with tl.dot) without
// staging it whole (bench/NOTES.md §81). Invocation t of the Tr × Tc grid (layout.ts) holds Rt rows of each of
// its Cc columns, all Rt in the registers i * Cc + m of one m: it combines them first, and only its Cc partials
// cross through workgroup memory, at row t / Tc of a [Tr, N] array; output column e then folds the Tr
// partials e, N + e, 2N + e … — Tr × N elements where staging took M × N. SpargeAttn's pooling kernel sums a
// 128 × 64 block so (the column mean of the block, beside the Gram matrix's tl.dot): 2048 floats instead of 8192.

import type { Value } from "../ir/ir";
import type { ArrayFacts, Emitter } from "./emitter";
import type { BlockLayout } from "./layout";

type Tile = NonNullable<BlockLayout["tile"]>;

/** The tile of `v`'s source where its reduction goes through column partials: axis 0 of a tiled block whose invocations hold several rows each. */
export function columnPartialsTile(ctx: ArrayFacts, v: Value & { op: "reduce" }): Tile | undefined {
  const tile = ctx.layout(v.value.type).tile;
  // tl.argmax's positions and bool blocks stay staged; with one row per invocation the partials would be the block.
  if (v.axis !== 0 || !tile || v.value.type.shape.length !== 2 || tile.rowsPerThread < 2) return undefined;
  if (v.fn === "argmax" || v.fn === "argmin" || ctx.dtype(v.value.type) === "bool") return undefined;
  return tile;
}

/** The [Tr, N] array of partials (in the staging slot: like staging, it is written after a barrier and read before the next). */
export function columnPartialsArray(ctx: ArrayFacts, v: Value & { op: "reduce" }, tile: Tile): string {
  return ctx.scratch("x", ctx.dtype(v.value.type), (ctx.workgroupSize / tile.threadsPerRow) * tile.cols);
}

/** Emits the reduction; `identity` and `combine` are the reduction function's (reductions.ts). Two barriers, as staging takes. */
export function emitColumnPartials(ctx: Emitter, v: Value & { op: "reduce" }, tile: Tile, identity: string, combine: (a: string, b: string) => string): void {
  const src = v.value;
  const t = ctx.typeOf(src.type);
  const n = tile.cols;
  const cc = tile.colsPerThread;
  const threadRows = ctx.workgroupSize / tile.threadsPerRow;
  const array = columnPartialsArray(ctx, v, tile);
  const name = ctx.fresh("colpart");
  ctx.emit("workgroupBarrier();");
  ctx.emit(`let ${name}_row = i32(lid / ${tile.threadsPerRow}u) * ${n};`);
  for (let m = 0; m < cc; m++) {
    const terms = Array.from({ length: tile.rowsPerThread }, (_, i) => ctx.reg(src, i * cc + m));
    // Register m's column: its element's index mod N (every one of its rows the same column).
    ctx.emit(`${array}[${name}_row + (${ctx.elementIndex(src.type, m)}) % ${n}] = ${terms.reduce(combine)};`);
  }
  ctx.emit("workgroupBarrier();");
  const out = ctx.layout(v.type);
  for (let j = 0; j < out.ept; j++) {
    const acc = ctx.fresh("acc");
    ctx.emit(`var ${acc}: ${t} = ${identity};`);
    ctx.emit(`for (var k: i32 = 0; k < ${threadRows}; k++) { ${acc} = ${combine(acc, `${array}[k * ${n} + ${ctx.elementIndex(v.type, j)}]`)}; }`);
    ctx.emit(`let ${ctx.valueName(v, j)} = ${acc};`);
  }
}
