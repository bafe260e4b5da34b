// How a block's elements are spread over a workgroup's invocations.
//
// A kernel runs one program instance per workgroup of `W` invocations. A block of N elements
// (flattened row-major) is held in registers: with N >= W each invocation holds EPT = N / W
// elements, in runs of V contiguous elements (V = min(4, EPT)) —
//   register j of invocation t holds element  (j / V) * (W * V) + t * V + (j % V)
// so consecutive invocations touch consecutive runs (coalesced), and each run of V can become one
// wide load. With N < W the block is replicated: invocation t holds element t % N in register 0.
//
// A true 2-D block [M, N] (M, N > 1) with at least 4 elements per invocation is tiled instead
// (CodegenOptions.tiledLayouts, by default in kernels with tl.dot): the invocations form a Tr × Tc grid
// and each holds Rt rows × Cc columns (both multiples of 4) in 4 × 4 pieces spread over the block —
//   register j = i * Cc + m of invocation t holds element
//     row (i / 4) * (Tr * 4) + (t / Tc) * 4 + i % 4,   column (m / 4) * (Tc * 4) + (t % Tc) * 4 + m % 4
// so a tl.dot can reuse each A element across Cc outputs and each B element across Rt (register
// blocking), and neighbouring invocations read neighbouring vec4s of the staged tiles (no
// workgroup-memory bank conflicts; contiguous Cc-wide pieces had 2-way conflicts, bench/NOTES.md
// §5). Same-shape values share a layout, so element-wise operations never move data; reshapes
// move data only between shapes of different layouts (see `layoutKey`).
//
// Lane rows (CodegenOptions.mmaLaneRows, `Tiling` "laneRows"): a tiled [W, N] block is held one
// whole row per invocation instead (Tc = 1, Rt = 1, Cc = N: invocation t holds row t), as the
// hand-written flash kernel's lanes hold S and O (bench/flash-kernels.ts), so that every block of W
// rows — attention's scores [W, BLOCK_N] and accumulator [W, HEAD_DIM] — has the same rows in the
// same invocation and a row vector moves between them in registers (bench/NOTES.md §31). The
// formulas above hold with pieces of min(4, Rt) rows (`pieceRows`) instead of 4.

import type { KernelIR, Shape, Stmt } from "../ir/ir";
import { numel } from "../ir/ir";
import { forEachStmt } from "../ir/walk";

export interface BlockLayout {
  numel: number;
  /** Tiled 2-D layout, when present: Rt × Cc elements per invocation, Tc invocations per row. */
  tile?: { rows: number; cols: number; rowsPerThread: number; colsPerThread: number; threadsPerRow: number };
  /** A row vector laid out as the rows of a tiled block (rowSlicesOf), when present. */
  rowSlice?: RowSlice;
  /** Registers per invocation. */
  ept: number;
  /** Contiguous elements per run. */
  vec: number;
  /** True when N < W: every invocation holds one element, several invocations the same one. */
  replicated: boolean;
}

/**
 * How 2-D blocks are laid out: flat (false), in 4 × 4 pieces (true), blocks of W rows one row per
 * invocation ("laneRows"), or tiles whose rows are held by `rowThreads` invocations each (RowThreads).
 */
export type Tiling = boolean | "laneRows" | RowThreads;

/**
 * Row threads (CodegenOptions.mmaRowThreads): each tiled [M, N] block held by Tc = `rowThreads`
 * invocations a row, each with N / Tc columns (in pieces of 4, Tc · 4 apart) of Rt = 1, 2 or a
 * multiple of 4 rows, where the block allows it (else the default tile). A row reduction then takes
 * log2(Tc) shuffle steps a row held: attention's 64 × 64 scores over 256 invocations take 4 steps
 * for each of 4 rows by default (Tc = 16), 2 steps for 1 row with Tc = 4.
 */
export interface RowThreads { rowThreads: number }

export function layoutOf(shape: Shape, workgroupSize: number, tiled: Tiling = false): BlockLayout {
  const n = numel(shape);
  if (n < workgroupSize) return { numel: n, ept: 1, vec: 1, replicated: true };
  const ept = n / workgroupSize;
  const tile = tiled && shape.length === 2 ? chosenTileOf(tiled, shape[0], shape[1], workgroupSize, ept) ?? tileOf(shape[0], shape[1], workgroupSize, ept) : undefined;
  return { numel: n, ept, vec: Math.min(4, ept), replicated: false, ...(tile ? { tile } : {}) };
}

/**
 * A block of M elements (a row vector: [M] or [M, 1]) held the way a tiled [M, N] block holds its
 * rows: invocation t has Rt registers, register i the element
 *   (i / 4) * (Tr * 4) + (t / Tc) * 4 + i % 4     (Tr = W / Tc)
 * so each of the Tc invocations of a tile row holds that row's values (Triton's slice layout). A
 * row reduction of the tiled block then needs no workgroup memory (reductions.ts), and the
 * broadcast of its result back over the columns moves no data (rearrange.ts): the online
 * softmax of attention between its two tl.dot (bench/NOTES.md §17).
 */
export interface RowSlice { rows: number; rowsPerThread: number; threadsPerRow: number }

/** The row-slice layout of [M] for a tiled [M, N] layout (`tile`). */
export function rowSliceOf(tile: NonNullable<BlockLayout["tile"]>): RowSlice {
  return { rows: tile.rows, rowsPerThread: tile.rowsPerThread, threadsPerRow: tile.threadsPerRow };
}

export function rowSliceLayout(slice: RowSlice): BlockLayout {
  return { numel: slice.rows, ept: slice.rowsPerThread, vec: 1, replicated: false, rowSlice: slice };
}

/** The row of register i of a row-slice layout, less the invocation's first row (`(t / Tc) * pieceRows`). */
export function rowSliceOffset(slice: RowSlice, workgroupSize: number, i: number): number {
  const ph = pieceRows(slice);
  return Math.floor(i / ph) * (workgroupSize / slice.threadsPerRow) * ph + (i % ph);
}

/** Rows of an invocation's pieces of a tiled layout: 4, or fewer where it holds fewer rows (lane rows: 1). */
export function pieceRows(tile: { rowsPerThread: number }): number {
  return Math.min(4, tile.rowsPerThread);
}

/** Whether a row slice and a tiled layout hold the same rows in the same invocations. */
export function sliceMatchesTile(slice: RowSlice | undefined, tile: BlockLayout["tile"]): boolean {
  return !!slice && !!tile && slice.rows === tile.rows && slice.threadsPerRow === tile.threadsPerRow && slice.rowsPerThread === tile.rowsPerThread;
}

/** The layout of a block of this shape: a row vector as its tile's rows where `rowSlices` has one of its length, else layoutOf's. */
export function resolveLayout(shape: Shape, workgroupSize: number, tiled: Tiling, rowSlices: ReadonlyMap<number, RowSlice>): BlockLayout {
  const slice = isRowVector(shape) ? rowSlices.get(numel(shape)) : undefined;
  return slice ? rowSliceLayout(slice) : layoutOf(shape, workgroupSize, tiled);
}

/** Whether values of these shapes hold the same elements in the same registers (a reshape between them moves nothing). */
export function sameLayout(a: Shape, b: Shape, workgroupSize: number, tiled: Tiling, rowSlices: ReadonlyMap<number, RowSlice>): boolean {
  const sa = resolveLayout(a, workgroupSize, tiled, rowSlices).rowSlice;
  const sb = resolveLayout(b, workgroupSize, tiled, rowSlices).rowSlice;
  if (sa || sb) return sa === sb;
  return layoutKey(a, workgroupSize, tiled) === layoutKey(b, workgroupSize, tiled);
}

/** A row vector: at most one axis longer than 1. */
export function isRowVector(shape: Shape): boolean {
  return shape.filter((d) => d > 1).length === 1 && (shape.length === 1 || (shape.length === 2 && shape[1] === 1));
}

/**
 * Row-slice layouts by element count: for each tiled [M, N] block that a kernel reduces along its
 * rows (tl.max / tl.sum over axis 1), the layout of its [M] result, so that every row vector of M
 * elements (the running maximum and sum, the rescale factor) lives in the tile's rows. None in a
 * kernel with atomics (which count on one copy of each element) or without such a reduction
 * (matmul, softmax and layer norm compile as before).
 */
export function rowSlicesOf(body: readonly Stmt[], workgroupSize: number, tiled: Tiling = true): Map<number, RowSlice> {
  const slices = new Map<number, RowSlice>();
  let atomics = false;
  forEachStmt(body, (s) => {
    if (s.kind !== "let") return;
    const v = s.value;
    atomics ||= v.op === "atomic";
    if (v.op !== "reduce" || v.axis !== 1 || v.value.type.shape.length !== 2) return;
    const tile = layoutOf(v.value.type.shape, workgroupSize, tiled === false ? true : tiled).tile;
    if (tile && !slices.has(tile.rows)) slices.set(tile.rows, rowSliceOf(tile));
  });
  return atomics ? new Map() : slices;
}

/** The tile a non-default tiling asks for, where the block allows it (else undefined: the default tile). */
function chosenTileOf(tiled: Exclude<Tiling, false>, m: number, n: number, w: number, ept: number): BlockLayout["tile"] {
  if (tiled === "laneRows") return laneRowsOf(m, n, w);
  return typeof tiled === "object" ? rowThreadsOf(m, n, w, ept, tiled.rowThreads) : undefined;
}

/** Row threads: Tc invocations a row of an [m, n] block, N / Tc columns (runs of 4) and Rt rows each (1, 2 or a multiple of 4). */
export function rowThreadsOf(m: number, n: number, w: number, ept: number, tc: number): BlockLayout["tile"] {
  const cols = n / tc;
  if (m < 4 || !Number.isInteger(ept) || !Number.isInteger(cols) || cols % 4 !== 0 || w % tc !== 0 || ept % cols !== 0) return undefined;
  const rowsPerThread = ept / cols;
  if ((rowsPerThread > 2 && rowsPerThread % 4 !== 0) || (w / tc) * rowsPerThread !== m) return undefined;
  return { rows: m, cols: n, rowsPerThread, colsPerThread: cols, threadsPerRow: tc };
}

/** Lane rows: a [W, n] block one whole row per invocation (n a multiple of 4: runs of 4 stay whole). */
function laneRowsOf(m: number, n: number, w: number): BlockLayout["tile"] {
  return m === w && n >= 4 && n % 4 === 0 ? { rows: m, cols: n, rowsPerThread: 1, colsPerThread: n, threadsPerRow: 1 } : undefined;
}

/** The sub-tile per invocation of a tiled [m, n] layout, or undefined for the flat layout. */
function tileOf(m: number, n: number, w: number, ept: number): BlockLayout["tile"] {
  // Sub-tiles of at least 4 × 4 (what register blocking in tl.dot needs); else the flat layout.
  if (m < 4 || n < 4 || ept < 16) return undefined;
  for (const cols of n >= 8 ? [8, 4] : [4]) {
    const threadsPerRow = n / cols;
    if (!Number.isInteger(threadsPerRow) || threadsPerRow > w || w % threadsPerRow !== 0 || ept % cols !== 0) continue;
    const rowsPerThread = ept / cols;
    if (rowsPerThread % 4 !== 0 || (w / threadsPerRow) * rowsPerThread !== m) continue;
    return { rows: m, cols: n, rowsPerThread, colsPerThread: cols, threadsPerRow };
  }
  return undefined;
}

/** The offset of register j's element from the invocation's first (`tileBase`) in a tiled layout. */
export function tileOffset(tile: NonNullable<BlockLayout["tile"]>, workgroupSize: number, j: number): number {
  const { row, col } = tileSpans(tile, workgroupSize);
  const i = Math.floor(j / tile.colsPerThread);
  const m = j % tile.colsPerThread;
  const ph = pieceRows(tile);
  return (Math.floor(i / ph) * row + (i % ph)) * tile.cols + Math.floor(m / 4) * col + (m % 4);
}

/** How far apart an invocation's 4-row and 4-column pieces of a tiled layout are. */
export function tileSpans(tile: NonNullable<BlockLayout["tile"]>, workgroupSize: number): { row: number; col: number } {
  return { row: (workgroupSize / tile.threadsPerRow) * pieceRows(tile), col: tile.threadsPerRow * 4 };
}

/** Values of shapes with equal keys hold the same elements in the same registers. */
export function layoutKey(shape: Shape, workgroupSize: number, tiled: Tiling = false): string {
  const layout = layoutOf(shape, workgroupSize, tiled);
  return layout.tile ? `tile:${layout.tile.rows}x${layout.tile.cols}${layout.tile.threadsPerRow === 1 && layout.tile.rowsPerThread === 1 ? ":lanes" : ""}` : `flat:${layout.numel}`;
}

/** Constant part of register j's element index (add `t * vec` for invocation t). */
export function registerOffset(layout: BlockLayout, workgroupSize: number, j: number): number {
  const v = layout.vec;
  return Math.floor(j / v) * workgroupSize * v + (j % v);
}

/**
 * The workgroup size: an eighth of the largest block (two runs of 4 elements per invocation,
 * so each has two wide loads in flight), at least a subgroup's worth of invocations when the
 * block allows it, at most the adapter's limit and 512. Measured on the H200 (bench/NOTES.md):
 * softmax and layer norm rows of 1024 ran 20–25% faster with 8 elements per invocation than 4,
 * and rows of 16384 best with 512 invocations.
 */
export function chooseWorkgroupSize(ir: KernelIR, maxWorkgroupSize: number, preferred?: number, tiled = false): number {
  const largest = largestBlock(ir.body);
  if (largest <= 1) return 1;
  // A tl.dot reuses each staged element across an invocation's outputs: the more outputs each
  // holds, the fewer workgroup-memory reads per multiply-add, but the more registers. 128×128×16
  // tiles on the H200: tiled, 8 × 8 outputs each (256 invocations) 32.5 TFLOP/s, 16 × 8 (128)
  // 29.4; flat layout 26.7 with 128, 18.2 with 256 (bench/NOTES.md §5).
  const cap = Math.min(maxWorkgroupSize, preferred ?? (containsDot(ir.body) ? (tiled ? 256 : 128) : 512));
  const w = Math.max(Math.min(largest, 32), Math.floor(largest / 8));
  return Math.min(w, cap);
}

export function containsDot(body: readonly Stmt[]): boolean {
  let found = false;
  forEachStmt(body, (s) => (found ||= s.kind === "let" && s.value.op === "dot"));
  return found;
}

/** The element count of the largest block a statement defines, stores through or assigns. */
function largestBlock(body: readonly Stmt[]): number {
  let largest = 1;
  forEachStmt(body, (s) => {
    const v = s.kind === "store" ? s.ptr : s.kind === "declare" ? s.init : s.kind === "let" || s.kind === "assign" ? s.value : undefined;
    if (v) largest = Math.max(largest, numel(v.type.shape));
  });
  return largest;
}
