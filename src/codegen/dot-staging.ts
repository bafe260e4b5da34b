// How a tiled tl.dot (dot.ts) stages its operands in workgroup memory: A transposed, its rows
// shifted against bank conflicts (CodegenOptions.padDotTiles), in the shared slots or arrays of its own
// (two alternating buffers, doubleBufferDot; or written without a barrier first, privateDotTiles).
// A pure function of the dot, its operands' layouts and the options, so the plan (plan.ts) knows
// each dot's arrays, and the workgroup memory they take, before anything is emitted.

import type { Value } from "../ir/ir";
import type { BlockLayout } from "./layout";
import { requestArray, type WorkgroupArray } from "./workgroup-arrays";

const BYTES = { f16: 2, f32: 4 } as const;

/** x for an operand written tl.trans(x) of a 2-D x (staged from x's registers), else undefined. */
export function transposedSource(operand: Value): Value | undefined {
  return operand.op === "trans" && operand.value.type.shape.length === 2 ? operand.value : undefined;
}

/** How far row kk of transposed, staged A is shifted: as a number, and as a WGSL u32 expression. */
export interface Pad {
  of(kk: number): number;
  expr(kk: string): string | undefined;
}

export const NO_PAD: Pad = { of: () => 0, expr: () => undefined };

/**
 * The shift of staged A's row kk (a multiple of 4, so the vec4 reads stay aligned, and growing
 * with kk, so rows never overlap), chosen from how A's registers are stored so that the 32
 * invocations of a subgroup storing one register each hit distinct banks. Unshifted, row kk
 * starts at kk × BLOCK_M, a multiple of the 32 banks, and the invocations that hold different
 * columns of one row of A all wrote the same bank: 4-way conflicts at BLOCK_K = 16, 8-way at 32.
 *  - Tiled A (4 × 4 pieces, stored as vec4 down a column): the 8 invocations of a quarter
 *    subgroup hold consecutive column groups, so row kk is shifted by 4 × (kk / 4).
 *  - Flat A (runs of 4 along a row, stored one element at a time): a subgroup holds R = 128 / K
 *    consecutive rows of K / 4 runs each, so row kk is shifted by R × (kk / 4).
 * Only the shift mod 32 decides the bank.
 */
function transposedPad(layout: BlockLayout, k: number): Pad {
  const rows = 128 / k;
  const step = !layout.tile && Number.isInteger(rows) && rows % 4 === 0 && layout.vec === 4 ? rows : 4;
  return {
    of: (kk) => (kk >> 2) * step,
    expr: (kk) => `((${kk}) >> 2u) * ${step}u`,
  };
}

/** Whether a 2-D tl.dot with this output layout takes the tiled path: 4 × 4 pieces per invocation. */
export function isTiledDotLayout(layout: BlockLayout): boolean {
  const tile = layout.tile;
  return tile !== undefined && tile.rowsPerThread % 4 === 0 && tile.colsPerThread % 4 === 0;
}

/** Where and how a tiled tl.dot stages A and B. */
export interface TiledDotStaging {
  /** Both operands f16 (staged as halves, widened as read), else both f32. */
  dtype: "f16" | "f32";
  /** The shift of staged A's rows (NO_PAD for tl.trans(x) as A, or with padDotTiles off). */
  pad: Pad;
  /** Elements of one copy of staged A (rows shifted) and of B. */
  sizeA: number;
  sizeB: number;
  /** Two alternating copies: one barrier per execution instead of two. */
  double: boolean;
  /** Arrays of its own (`sm_d<id>a`…) rather than the shared slots: double-buffered, or without a leading barrier. */
  own: boolean;
  a: string;
  b: string;
  /** K's columns of A and rows of B staged at a time (CodegenOptions.dotChunkK; K: whole, dot-chunks.ts otherwise). */
  chunk: number;
}

/**
 * How many of K's columns (A) and rows (B) a tl.dot not on subgroup matrices stages at a time:
 * `dotChunkK` where it divides K into more than one chunk (CodegenOptions.dotChunkK), else K.
 */
export function dotChunk(k: number, dotChunkK: number | undefined): number {
  return dotChunkK !== undefined && dotChunkK < k && k % dotChunkK === 0 ? dotChunkK : k;
}

/**
 * The staging of a tiled tl.dot, its arrays requested from `arrays`. Double-buffered where two
 * copies of both tiles fit in two thirds of the workgroup memory (the rest for other dots and
 * reductions): this dot's own arrays, the halves used in turn, so the barrier before the writes
 * is not needed — a write to a half follows the barrier of the dot's previous execution, which
 * every invocation passed only after finishing its reads of the execution before that, the last
 * one that used the same half (bench/NOTES.md §13).
 */
export function tiledDotStaging(
  v: Value & { op: "dot" },
  layoutA: BlockLayout,
  choices: { padDotTiles: boolean; doubleBufferDot: boolean; privateDot: boolean; maxWorkgroupStorageBytes: number; dotChunkK?: number },
  arrays: Map<string, WorkgroupArray>,
): TiledDotStaging {
  const [m, k] = v.a.type.shape;
  const n = v.b.type.shape[1];
  const dtype = v.a.type.kind === "data" && v.a.type.dtype === "f16" ? "f16" : "f32";
  const chunk = dotChunk(k, choices.dotChunkK);
  if (chunk < k) {
    // In chunks (a fallback, plan.ts): the shared slots, rows unshifted, one copy.
    const a = requestArray(arrays, "a", dtype, m * chunk, true);
    const b = requestArray(arrays, "b", dtype, chunk * n, true);
    return { dtype, pad: NO_PAD, sizeA: m * chunk, sizeB: chunk * n, double: false, own: false, a, b, chunk };
  }
  // A is staged transposed (row kk holds A's column kk) with row kk shifted by pad(kk) elements,
  // so the invocations of a subgroup storing one register each hit distinct banks (transposedPad);
  // tl.trans(x) staged as A is x's rows as they are.
  const pad = choices.padDotTiles && !transposedSource(v.a) ? transposedPad(layoutA, k) : NO_PAD;
  const sizeA = m * k + pad.of(k - 1);
  const sizeB = k * n;
  const double = choices.doubleBufferDot && 2 * (sizeA + sizeB) * BYTES[dtype] <= (choices.maxWorkgroupStorageBytes * 2) / 3;
  const own = double || choices.privateDot;
  const copies = double ? 2 : 1;
  const a = requestArray(arrays, own ? `d${v.id}a` : "a", dtype, copies * sizeA, true);
  const b = requestArray(arrays, own ? `d${v.id}b` : "b", dtype, copies * sizeB, true);
  return { dtype, pad, sizeA, sizeB, double, own, a, b, chunk };
}
