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
//
// Runs of 8 (CodegenOptions.runsOf8, `Tiling` EightRuns): an invocation's runs of 4 lie side by
// side in pairs, 8 contiguous elements of one row, so an f16 load reads 16 bytes at a time
// (memory.ts), as the hand-written matmul's do (bench/NOTES.md §60). A flat block of 8 or more
// elements per invocation, rows of a multiple of 8, has `span` 8:
//   register j of invocation t holds element  (j / 8) * (W * 8) + t * 8 + (j % 8)
// and a tiled block whose invocations hold a multiple of 8 columns has pieces of one row of 8 columns
// (`pieceCols`, `pieceRows`): register j = i * Cc + m of invocation t holds element
//   row i * Tr + t / Tc,   column (m / 8) * (Tc * 8) + (t % Tc) * 8 + m % 8
// so a subgroup's invocations hold consecutive rows, as the hand-written kernel's do (pieces of 2 or 4
// rows put a subgroup's 16-byte pieces on rows 2 or 4 apart, whose padded rows share banks:
// bench/NOTES.md §60). Every aligned run of 4 registers is still 4 contiguous elements, so what moves
// runs of 4 is unchanged.

import type { KernelIR, Shape, Stmt } from "../ir/ir";
import { numel } from "../ir/ir";
import { forEachStmt } from "../ir/walk";

export interface BlockLayout {
  numel: number;
  /**
   * Tiled 2-D layout, when present: Rt × Cc elements per invocation, Tc invocations per row, in
   * pieces of `pieceCols` columns (4 when absent; 8 with runs of 8).
   */
  tile?: { rows: number; cols: number; rowsPerThread: number; colsPerThread: number; threadsPerRow: number; pieceCols?: 8; pieceRows?: 1 };
  /** A row vector laid out as the rows of a tiled block (rowSlicesOf), when present. */
  rowSlice?: RowSlice;
  /** Registers per invocation. */
  ept: number;
  /** Contiguous elements per run. */
  vec: number;
  /** A flat layout's runs of 4 side by side in pairs (runs of 8): elements an invocation holds together. */
  span?: 8;
  /** True when N < W: every invocation holds one element, several invocations the same one. */
  replicated: boolean;
}

/**
 * How 2-D blocks are laid out: flat (false), in 4 × 4 pieces (true), blocks of W rows one row per
 * invocation ("laneRows"), or tiles whose rows are held by `rowThreads` invocations each (RowThreads).
 */
export type Tiling = boolean | "laneRows" | RowThreads | EightRuns;

/** The default tiles with runs of 8 (CodegenOptions.runsOf8): see the top of this file. */
export interface EightRuns { runs: 8 }

/** Whether a tiling pairs its runs of 4 into runs of 8. */
export function runsOf8(tiled: Tiling): tiled is EightRuns {
  return typeof tiled === "object" && "runs" in tiled;
}

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
  const last = shape[shape.length - 1] ?? 1;
  const span = !tile && runsOf8(tiled) && ept % 8 === 0 && (shape.length < 2 || last % 8 === 0) ? { span: 8 as const } : {};
  return { numel: n, ept, vec: Math.min(4, ept), replicated: false, ...(tile ? { tile } : span) };
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
export interface RowSlice { rows: number; rowsPerThread: number; threadsPerRow: number; pieceRows?: 1 }

/** The row-slice layout of [M] for a tiled [M, N] layout (`tile`). */
export function rowSliceOf(tile: NonNullable<BlockLayout["tile"]>): RowSlice {
  return { rows: tile.rows, rowsPerThread: tile.rowsPerThread, threadsPerRow: tile.threadsPerRow, ...(tile.pieceRows ? { pieceRows: tile.pieceRows } : {}) };
}

export function rowSliceLayout(slice: RowSlice): BlockLayout {
  return { numel: slice.rows, ept: slice.rowsPerThread, vec: 1, replicated: false, rowSlice: slice };
}

/** The row of register i of a row-slice layout, less the invocation's first row (`(t / Tc) * pieceRows`). */
export function rowSliceOffset(slice: RowSlice, workgroupSize: number, i: number): number {
  const ph = pieceRows(slice);
  return Math.floor(i / ph) * (workgroupSize / slice.threadsPerRow) * ph + (i % ph);
}

/** Rows of an invocation's pieces of a tiled layout: 4, or fewer where it holds fewer rows (lane rows: 1); 1 with runs of 8. */
export function pieceRows(tile: { rowsPerThread: number; pieceRows?: 1 }): number {
  return tile.pieceRows ?? Math.min(4, tile.rowsPerThread);
}

/** Whether a row slice and a tiled layout hold the same rows in the same invocations. */
export function sliceMatchesTile(slice: RowSlice | undefined, tile: BlockLayout["tile"]): boolean {
  return !!slice && !!tile && slice.rows === tile.rows && slice.threadsPerRow === tile.threadsPerRow && slice.rowsPerThread === tile.rowsPerThread && pieceRows(slice) === pieceRows(tile);
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
  if (runsOf8(tiled)) return eightColumnsOf(m, n, w, ept);
  return typeof tiled === "object" ? rowThreadsOf(m, n, w, ept, tiled.rowThreads) : undefined;
}

/**
 * Runs of 8: the default tile in pieces of one row of 8 columns where its invocations hold a multiple
 * of 8 columns; else Tc = n / 8 invocations a row of 8 columns each (a [256, 32] tile over 512
 * invocations: 2 rows of 8 each, 128 rows apart, where the default holds 4 rows of 4).
 */
function eightColumnsOf(m: number, n: number, w: number, ept: number): BlockLayout["tile"] {
  const tile = tileOf(m, n, w, ept);
  if (tile && tile.colsPerThread % 8 === 0) return { ...tile, pieceCols: 8, pieceRows: 1 };
  const tc = n / 8;
  const rowsPerThread = ept / 8;
  const fits = m >= 2 && n % 8 === 0 && ept >= 16 && w % tc === 0 && Number.isInteger(rowsPerThread) && (w / tc) * rowsPerThread === m;
  return fits ? { rows: m, cols: n, rowsPerThread, colsPerThread: 8, threadsPerRow: tc, pieceCols: 8, pieceRows: 1 } : tile;
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
  const pc = pieceCols(tile);
  return (Math.floor(i / ph) * row + (i % ph)) * tile.cols + Math.floor(m / pc) * col + (m % pc);
}

/** Columns of an invocation's pieces of a tiled layout: 4, or 8 with runs of 8. */
export function pieceCols(tile: NonNullable<BlockLayout["tile"]>): number {
  return tile.pieceCols ?? 4;
}

/** How far apart an invocation's row and column pieces of a tiled layout are. */
export function tileSpans(tile: NonNullable<BlockLayout["tile"]>, workgroupSize: number): { row: number; col: number } {
  return { row: (workgroupSize / tile.threadsPerRow) * pieceRows(tile), col: tile.threadsPerRow * pieceCols(tile) };
}

/** Values of shapes with equal keys hold the same elements in the same registers. */
export function layoutKey(shape: Shape, workgroupSize: number, tiled: Tiling = false): string {
  const layout = layoutOf(shape, workgroupSize, tiled);
  return layout.tile ? `tile:${layout.tile.rows}x${layout.tile.cols}${layout.tile.threadsPerRow === 1 && layout.tile.rowsPerThread === 1 ? ":lanes" : ""}` : `flat:${layout.numel}`;
}

/** Elements a flat layout's invocation holds side by side: its runs (vec), or 8 with runs of 8. */
export function runSpan(layout: BlockLayout): number {
  return layout.span ?? layout.vec;
}

/** Constant part of register j's element index in a flat layout (add `t * runSpan` for invocation t). */
export function registerOffset(layout: BlockLayout, workgroupSize: number, j: number): number {
  const v = runSpan(layout);
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
