// A coarse map of where a 2-D output is wrong: at most 32 × 32 cells over its [rows, cols], each
// the count of mismatched elements in its region (`mismatchMap` of a run entry; the results panel
// draws it as a heatmap). A wrong quadrant or a wrong row of tiles shows at a glance.

import type { Shape2d } from "./shapes";

export const MAX_CELLS = 32;

export interface MismatchMap {
  output: string;
  /** The output as [rows, cols] (the run's `shapes`). */
  shape: Shape2d;
  /** Elements per cell: [rows, cols] (the last row or column of cells may be smaller). */
  cell: Shape2d;
  /** counts[r][c]: wrong elements in rows r × cell[0] …, columns c × cell[1] … */
  counts: number[][];
}

export function emptyMismatchMap(output: string, shape: Shape2d): MismatchMap {
  const cell: Shape2d = [Math.ceil(shape[0] / MAX_CELLS), Math.ceil(shape[1] / MAX_CELLS)];
  const rows = Math.ceil(shape[0] / cell[0]);
  const cols = Math.ceil(shape[1] / cell[1]);
  return { output, shape, cell, counts: Array.from({ length: rows }, () => new Array<number>(cols).fill(0)) };
}

/** Counts the mismatched element at flat `index` of the output. */
export function countMismatch(map: MismatchMap, index: number): void {
  const row = Math.floor(index / map.shape[1]);
  const col = index % map.shape[1];
  map.counts[Math.floor(row / map.cell[0])][Math.floor(col / map.cell[1])]++;
}
