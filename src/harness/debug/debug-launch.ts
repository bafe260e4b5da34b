// What a debug launch asks for and what its recording is (editor/debug/ replays it), shared by the
// two ways a program is recorded: a `.kernel.ts` run's (debug-run.ts) and a Python script's
// launch (debug-python.ts).

import type { ProgramId } from "../../interpreter/interpret";
import type { AccessMapReport } from "./access-map";
import type { DebugStop } from "./debug-recorder";
import type { PythonFileReport } from "../python/report";

/** What a debug launch configuration asks for (package.json `contributes.debuggers`). */
export interface DebugLaunch {
  /** A `*.kernel.ts` file, or a `.py` file with `@triton.jit` kernels. */
  file: string;
  /** A kernel file's run: its name or export name; default the file's first run. */
  run?: string;
  /** A Python file's `@triton.jit` kernel; default the first one the file launches. */
  kernel?: string;
  /** A kernel file's size; default the run's first size. */
  size?: number;
  /** Default [0, 0, 0]; a shorter list is padded with zeros. */
  programId?: readonly number[];
  /** A kernel file's: merged over the run's constexprs (e.g. a bigger BLOCK_SIZE); the grid sees them too. */
  constexprs?: Record<string, number>;
  /** Most stops recorded before the rest of the program is cut off. */
  maxStops?: number;
}

export interface ProgramTrace {
  file: string;
  kernel: string;
  /** A kernel file's run and size; absent for a Python script's launch. */
  run?: string;
  size?: number;
  /** A Python script's: the line of the `kernel[grid](…)` call whose first launch is debugged. */
  launchLine?: number;
  grid: [number, number, number];
  programId: ProgramId;
  constexprs: Record<string, number>;
  stops: DebugStop[];
  /** The stop cap was reached: the program went on past the last stop. */
  truncated: boolean;
  /** 1-based lines of the kernel's statements (where a breakpoint can stop). */
  statementLines: number[];
  /** The first and last line of the kernel and of each device function it may call. */
  functionLines: [number, number][];
  /** What the program's loads, stores and atomics touch over its whole run (access-map.ts), for the Variables view's Accesses scope. */
  accessMap?: AccessMapReport;
  /** A Python script's: how Kernel Lab's Python (Pyodide) started to run it to the launch (reused: a warm worker's). */
  pyodide?: PythonFileReport["pyodide"];
}

export const DEFAULT_MAX_STOPS = 10_000;

/** A launch that can't be debugged; its message says what to change. */
export class DebugLaunchError extends Error {}

/** The program id asked for, padded to three axes, or a DebugLaunchError when it is outside the grid. */
export function programIdOf(given: readonly number[] | undefined, grid: [number, number, number]): ProgramId {
  const id = [0, 1, 2].map((axis) => given?.[axis] ?? 0) as [number, number, number];
  const inside = id.every((v, axis) => Number.isInteger(v) && v >= 0 && v < grid[axis]);
  if (!inside) throw new DebugLaunchError(`program (${id.join(", ")}) is not in the grid [${grid.join(", ")}]; pick each id from 0 to the grid's extent − 1`);
  return id;
}
