// The access map of one program (`kernel-lab run FILE --program P`, the results panel, the
// debugger): for each tl.load / tl.store / tl.atomic* of the kernel, the elements of its buffer
// that the program's active lanes touched (every trip of a loop together) and the in-bounds
// addresses of its masked-off lanes, drawn on the buffer's shape (`shapes`, else rows of 64).
// Computed from the interpreter's trace of that one program (access-trace.ts).

import type { LineMap } from "../../diagnostics/position";
import type { ProgramId } from "../../interpreter/interpret";
import type { ProgramTrace } from "./access-trace";

export interface AccessMapLayer {
  kind: "load" | "store" | "atomic";
  param: string;
  line: number;
  column: number;
  /** Lane executions (every trip of a loop), and how many were active. */
  lanes: number;
  active: number;
  /** Elements the active lanes touched, as sorted [start, end) runs. */
  touched: [number, number][];
  /** Addresses of masked-off lanes that no active lane touched (drawn hollow; past the buffer's end for a tail block), as runs. */
  masked: [number, number][];
}

export interface AccessMapReport {
  program: [number, number, number];
  /** Each buffer the program touches: its element count and how it is drawn ([rows, cols]). */
  buffers: { param: string; length: number; shape: [number, number]; /** The run's `shapes` gave the shape (else rows of ROW_WIDTH). */ matrix: boolean }[];
  layers: AccessMapLayer[];
}

/** The results panel's maps of several programs of one launch (analyse-launch.ts programAccessMaps). */
export interface AccessMapsReport {
  /** Programs in the grid; `maps` has some of them (all of a small grid), in linear order. */
  programs: number;
  maps: AccessMapReport[];
}

/** An exercise's run beside its solution (exercise-access.ts). */
export interface ExerciseAccessReport {
  /** Programs compared (the grid's first, by linear id), of the grid's. */
  compared: number;
  programs: number;
  /** The first program whose accesses differ from the solution's; absent when every compared program agrees. */
  differs?: { program: [number, number, number]; what: string; yours: AccessMapReport; reference: AccessMapReport };
}

/** The command line's line, and the panel's: where the run's accesses first part from the solution's, or that they agree. */
export function exerciseAccessText(e: ExerciseAccessReport): string {
  const of = e.programs === 1 ? "the only program touches" : `${e.compared < e.programs ? `the first ${e.compared} of ${e.programs}` : `all ${e.programs}`} programs touch`;
  if (!e.differs) return `Accesses: ${of} the same elements as the solution's`;
  const p = e.differs.program;
  const id = p[2] ? p.join(",") : p[1] ? `${p[0]},${p[1]}` : `${p[0]}`;
  return `Accesses: program (${p.join(",")}) is the first whose differ from the solution's: ${e.differs.what} (--program ${id} maps yours)`;
}

/** Width of the rows a 1-D buffer is drawn in. */
export const ROW_WIDTH = 64;

export function accessMap(trace: ProgramTrace, lengths: ReadonlyMap<string, number>, shapes: ReadonlyMap<string, [number, number]>, lines: LineMap): AccessMapReport {
  const params = [...new Set(trace.sites.map((s) => s.param))];
  const buffers = params.map((param) => {
    const length = lengths.get(param) ?? 0;
    const shape = shapes.get(param);
    return { param, length, shape: shape ?? ([Math.max(1, Math.ceil(length / ROW_WIDTH)), Math.min(ROW_WIDTH, Math.max(1, length))] as [number, number]), matrix: shape !== undefined };
  });
  const layers = trace.sites.map((s): AccessMapLayer => {
    const at = lines.at(s.span.start);
    const masked = [...s.masked].filter((e) => !s.touched.has(e));
    return { kind: s.kind, param: s.param, line: at.line, column: at.column, lanes: s.lanes, active: s.active, touched: runsOf(s.touched), masked: runsOf(masked) };
  });
  return { program: [...trace.program] as [number, number, number], buffers, layers };
}

/** Sorted [start, end) runs of a set of element indices. */
export function runsOf(elements: Iterable<number>): [number, number][] {
  const sorted = [...elements].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const e of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[1] === e) last[1] = e + 1;
    else if (!last || e >= last[1]) runs.push([e, e + 1]);
  }
  return runs;
}

const count = (runs: readonly [number, number][]) => runs.reduce((n, [a, b]) => n + b - a, 0);

/** Buffers up to this many elements are drawn (a cell of elements per character past 32 × 64); larger ones get a summary only. */
export const DRAWN_ELEMENTS = 1 << 20;

/** The CLI's text: per layer a summary line, and unless the buffer is huge its map ('#' touched, 'o' masked-off lane, '.' untouched). */
export function accessMapText(map: AccessMapReport): string[] {
  const out = [`  Access map of program (${map.program.join(",")}):`];
  for (const layer of map.layers) {
    const buffer = map.buffers.find((b) => b.param === layer.param);
    out.push(`    ${layer.kind} ${layer.param} (line ${layer.line}): ${layerSummary(map, layer)}`);
    if (buffer && buffer.length <= DRAWN_ELEMENTS) {
      const [r, c] = buffer.shape;
      const cell = [Math.ceil(r / MAX_ROWS), Math.ceil(c / MAX_COLS)];
      if (cell[0] * cell[1] > 1) out.push(`      (${r} × ${c}, a character per ${cell[0]} × ${cell[1]} elements; # touched, o masked-off lane, . untouched)`);
      out.push(...drawLayer(layer, buffer.length, buffer.shape).map((l) => `      ${l}`));
    }
  }
  return out;
}

/** "2112 of 2560 lanes active, 2112 elements in rows 32–63 × columns 0–65, 448 lanes masked off": a layer in a line (the CLI, the debugger). */
export function layerSummary(map: AccessMapReport, layer: AccessMapLayer): string {
  const buffer = map.buffers.find((b) => b.param === layer.param);
  const touched = count(layer.touched);
  const masked = layer.lanes - layer.active;
  const past = count(layer.masked.map(([a, b]): [number, number] => [Math.max(a, buffer?.length ?? 0), Math.max(b, buffer?.length ?? 0)]));
  const [rows, cols] = buffer?.shape ?? [1, 1];
  const where = layer.touched.length === 0 ? "nothing" : boundsText(layer.touched, cols, buffer?.matrix === true && rows > 1);
  return `${layer.active} of ${layer.lanes} lanes active, ${touched} element${touched === 1 ? "" : "s"} ${where}` +
    `${masked > 0 ? `, ${masked} lane${masked === 1 ? "" : "s"} masked off${past > 0 ? ` (${past} past the end)` : ""}` : ""}`;
}

function boundsText(runs: readonly [number, number][], cols: number, twoD: boolean): string {
  const lo = runs[0][0];
  const hi = runs[runs.length - 1][1] - 1;
  if (!twoD) return runs.length === 1 ? `[${lo}, ${hi + 1})` : `in ${runs.length} runs within [${lo}, ${hi + 1})`;
  let r0 = Infinity, r1 = -1, c0 = Infinity, c1 = -1;
  for (const [a, b] of runs) {
    for (let e = a; e < b; e++) {
      const r = Math.floor(e / cols), c = e % cols;
      r0 = Math.min(r0, r); r1 = Math.max(r1, r); c0 = Math.min(c0, c); c1 = Math.max(c1, c);
    }
  }
  return `in rows ${r0}–${r1} × columns ${c0}–${c1}`;
}

/** At most this many rows and columns of characters: a larger buffer is drawn a cell of elements per character. */
const MAX_ROWS = 32;
const MAX_COLS = 64;

/** '#' where an active lane touched an element of the cell, 'o' where only masked-off lanes pointed, '.' elsewhere. */
export function drawLayer(layer: AccessMapLayer, bufferLength: number, bufferShape: [number, number]): string[] {
  // Masked-off lanes past the end get rows of their own below the buffer.
  const reach = Math.max(bufferLength, ...layer.masked.map(([, b]) => b));
  const cols0 = bufferShape[1];
  const shape: [number, number] = [Math.ceil(reach / cols0), cols0];
  const length = reach;
  const cells = new Uint8Array(length);
  for (const [a, b] of layer.masked) cells.fill(2, a, Math.min(b, length));
  for (const [a, b] of layer.touched) cells.fill(1, Math.max(0, a), Math.min(b, length));
  const [rows, cols] = shape;
  const cellRows = Math.ceil(rows / MAX_ROWS);
  const cellCols = Math.ceil(cols / MAX_COLS);
  const out: string[] = [];
  for (let r = 0; r < rows; r += cellRows) {
    let line = "";
    for (let c = 0; c < cols && r * cols + c < length; c += cellCols) {
      let mark = 0;
      for (let rr = r; rr < Math.min(rows, r + cellRows); rr++) {
        for (let cc = c; cc < Math.min(cols, c + cellCols); cc++) {
          const v = cells[rr * cols + cc];
          if (v === 1) mark = 1;
          else if (v === 2 && mark === 0) mark = 2;
        }
      }
      line += ".#o"[mark];
    }
    out.push(line);
  }
  return out;
}

/** "3" or "1,2" or "1,2,0" → a program id. */
export function parseProgram(text: string): ProgramId | undefined {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return undefined;
  const [x, y = 0, z = 0] = parts.map(Number);
  return [x, y, z];
}
