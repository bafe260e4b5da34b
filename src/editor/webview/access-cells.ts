// What the results panel draws of one buffer in an access map: the buffer's elements on its shape
// (rows of 64 for 1-D, `shapes` for 2-D), a cell of elements per square once the buffer is larger
// than MAX_CELLS a side, and per cell which kinds of access touched it with an active lane
// (filled) or only pointed at it from a masked-off lane (hollow). No DOM: the drawing is
// access-map-view.ts, and tests read these numbers.

import type { AccessMapLayer } from "../../harness/debug/access-map";

/** At most this many cells a side: a larger buffer gets several elements per cell. */
export const MAX_CELLS = 128;

/** Per cell: bit k set where an active lane of kind k touched it; bit k + 3 where only a masked-off lane of kind k pointed. */
export const KIND_BIT = { load: 0, store: 1, atomic: 2 } as const;
export const MASKED_SHIFT = 3;

export interface BufferCells {
  /** Cell rows and columns drawn (rows past the buffer's end hold masked-off lanes of a tail block). */
  rows: number;
  cols: number;
  /** Elements per cell, down and across. */
  cell: [number, number];
  /** Cells whose first element is this or later lie past the buffer's end (`inside`). */
  length: number;
  /** The buffer's elements per row. */
  elementCols: number;
  flags: Uint8Array;
  /** Elements an active lane of a shown layer touched, and addresses only masked-off lanes pointed at. */
  touched: number;
  masked: number;
}

export interface DrawnBuffer {
  length: number;
  shape: [number, number];
}

/** The cells of `buffer` under the shown layers (those of other buffers are skipped). */
export function bufferCells(buffer: DrawnBuffer & { param: string }, layers: readonly AccessMapLayer[]): BufferCells {
  const mine = layers.filter((l) => l.param === buffer.param);
  const cols0 = Math.max(1, buffer.shape[1]);
  // Masked-off lanes past the end get rows of their own below the buffer.
  const reach = Math.max(buffer.length, ...mine.flatMap((l) => l.masked.map(([, b]) => b)));
  const rows0 = Math.max(1, Math.ceil(reach / cols0));
  const cell: [number, number] = [Math.ceil(rows0 / MAX_CELLS), Math.ceil(cols0 / MAX_CELLS)];
  const rows = Math.ceil(rows0 / cell[0]);
  const cols = Math.ceil(cols0 / cell[1]);
  const flags = new Uint8Array(rows * cols);
  const cellOf = (e: number) => Math.floor(Math.floor(e / cols0) / cell[0]) * cols + Math.floor((e % cols0) / cell[1]);
  const active = new Set<number>();
  const masked = new Set<number>();
  for (const layer of mine) {
    const bit = 1 << KIND_BIT[layer.kind];
    for (const [a, b] of layer.touched) {
      for (let e = Math.max(0, a); e < Math.min(b, reach); e++) {
        flags[cellOf(e)] |= bit;
        active.add(e);
      }
    }
    for (const [a, b] of layer.masked) {
      for (let e = Math.max(0, a); e < Math.min(b, reach); e++) {
        flags[cellOf(e)] |= bit << MASKED_SHIFT;
        masked.add(e);
      }
    }
  }
  let onlyMasked = 0;
  for (const e of masked) if (!active.has(e)) onlyMasked++;
  return { rows, cols, cell, length: buffer.length, elementCols: cols0, flags, touched: active.size, masked: onlyMasked };
}

/** Whether cell (row, col) holds elements of the buffer, not only addresses past its end. */
export function inside(cells: BufferCells, row: number, col: number): boolean {
  return row * cells.cell[0] * cells.elementCols + col * cells.cell[1] < cells.length;
}

/** Which kinds to fill a cell with, and which to draw hollow (masked-off lanes only, no active lane of that kind). */
export function cellKinds(flag: number): { filled: (keyof typeof KIND_BIT)[]; hollow: (keyof typeof KIND_BIT)[] } {
  const filled: (keyof typeof KIND_BIT)[] = [];
  const hollow: (keyof typeof KIND_BIT)[] = [];
  for (const kind of ["load", "store", "atomic"] as const) {
    const bit = 1 << KIND_BIT[kind];
    if (flag & bit) filled.push(kind);
    else if (flag & (bit << MASKED_SHIFT)) hollow.push(kind);
  }
  return { filled, hollow };
}

/** A layer's key, the same in every program's map: its kind, buffer and place in the file. */
export function layerKey(layer: Pick<AccessMapLayer, "kind" | "param" | "line" | "column">): string {
  return `${layer.kind}:${layer.param}:${layer.line}:${layer.column}`;
}
