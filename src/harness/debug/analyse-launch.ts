// The access map of a chosen program and where the bytes go, for one launch of a run: the
// interpreter traces programs (access-trace.ts) on a copy of the launch's arguments, never the
// GPU's buffers, so the same numbers come out with --cpu and on any GPU.

import type { LineMap } from "../../diagnostics/position";
import { interpret, InterpreterError, type ProgramId } from "../../interpreter/interpret";
import type { KernelIR, PointeeDtype } from "../../ir/ir";
import { forEachValue } from "../../ir/walk";
import type { HostArray } from "../../language";
import { copyArgs, type KernelArgs } from "../run/args";
import { accessMap, type AccessMapReport, type AccessMapsReport } from "./access-map";
import { programsToTrace, traceAccesses } from "./access-trace";
import { bytesReport, TRACED_PROGRAMS, type BytesReport } from "./bytes";
import { toStorage } from "../run/gpu-args";

/**
 * Lanes traced for the bytes before the tracer stops at the end of a program. Every timed run and
 * every autotune candidate pays for it on the CPU: 2^16 lanes is tens of ms, where 10^6 made a
 * sweep of the tutorial ports several minutes slower on a 2-core machine.
 */
export const TRACE_BUDGET = 1 << 16;

export interface LaunchToTrace {
  ir: KernelIR;
  grid: readonly [number, number, number];
  args: KernelArgs;
  dtypes: ReadonlyMap<string, PointeeDtype>;
  lines: LineMap;
  shapes?: ReadonlyMap<string, [number, number]>;
}

function interpreterArgs(launch: LaunchToTrace): Record<string, ArrayLike<number> | number> {
  const out: Record<string, ArrayLike<number> | number> = {};
  for (const [k, v] of Object.entries(copyArgs(launch.args))) out[k] = typeof v === "number" ? v : toStorage(v as HostArray, launch.dtypes.get(k) ?? "f32");
  return out;
}

/** The access map of `program`; undefined when it is not in the grid or its trace fails (the run reports that failure itself). */
export function programAccessMap(launch: LaunchToTrace, program: ProgramId): AccessMapReport | undefined {
  if (program.some((p, i) => p >= launch.grid[i])) return undefined;
  const args = interpreterArgs(launch);
  try {
    const trace = traceAccesses({ ir: launch.ir, grid: launch.grid, args, programs: [program], detail: program });
    if (!trace.detail) return undefined;
    const lengths = new Map(Object.entries(args).flatMap(([k, v]) => (typeof v === "number" ? [] : [[k, v.length] as const])));
    return accessMap(trace.detail, lengths, launch.shapes ?? new Map(), launch.lines);
  } catch (err) {
    if (err instanceof InterpreterError) return undefined;
    throw err;
  }
}

/** The results panel's maps: at most this many programs of a launch … */
export const MAPPED_PROGRAMS = 64;
/** … and the programs traced stop once this many lanes were seen (a program's map costs its lanes' addresses, in the report too). */
export const MAP_BUDGET = 1 << 17;

/** The programs the panel gets maps of: the whole grid when small, else MAPPED_PROGRAMS evenly spaced by linear id, the first and the last (often a masked tail) included. */
export function programsToMap(grid: readonly [number, number, number], limit = MAPPED_PROGRAMS): ProgramId[] {
  const [gx, gy, gz] = grid;
  const total = gx * gy * gz;
  const count = Math.min(total, limit);
  const linear = [...new Set(Array.from({ length: count }, (_, i) => (count === 1 ? 0 : Math.round((i * (total - 1)) / (count - 1)))))];
  return linear.map((l) => [l % gx, Math.floor(l / gx) % gy, Math.floor(l / (gx * gy))]);
}

/** The access maps of a bounded set of the launch's programs (programsToMap, MAP_BUDGET), for the results panel. */
export function programAccessMaps(launch: LaunchToTrace, limit = MAPPED_PROGRAMS, budget = MAP_BUDGET): AccessMapsReport | undefined {
  const programs = programsToMap(launch.grid, limit);
  // The first and the last first, so a budget that stops early still has both ends of the grid.
  const order = programs.length > 2 ? [programs[0], programs[programs.length - 1], ...programs.slice(1, -1)] : programs;
  const maps = mapsOf(launch, order, programs, budget);
  return maps && { programs: launch.grid[0] * launch.grid[1] * launch.grid[2], maps };
}

/** The maps of `programs` (those traced before `budget` lanes, in `programs`' order), traced in `order`; undefined when the interpreter fails. */
export function mapsOf(launch: LaunchToTrace, order: readonly ProgramId[], programs: readonly ProgramId[], budget?: number): AccessMapReport[] | undefined {
  const args = interpreterArgs(launch);
  try {
    const trace = traceAccesses({ ir: launch.ir, grid: launch.grid, args, programs: order, details: programs, ...(budget !== undefined ? { budget } : {}) });
    const lengths = new Map(Object.entries(args).flatMap(([k, v]) => (typeof v === "number" ? [] : [[k, v.length] as const])));
    return (trace.details ?? []).map((d) => accessMap(d, lengths, launch.shapes ?? new Map(), launch.lines));
  } catch (err) {
    if (err instanceof InterpreterError) return undefined;
    throw err;
  }
}

/** What one program's active lanes touched: elements per kind and buffer ("load:x_ptr"), and its lane executions. */
export interface ProgramTouched {
  touched: Map<string, Set<number>>;
  lanes: number;
}

/**
 * What each of `programs` touched, traced in order on one copy of the launch's arguments as
 * mapsOf traces them, without the maps: the elements only (exercise-access.ts compares programs
 * with these, and maps only the programs that differ). Undefined when the interpreter fails.
 */
export function touchedOf(launch: LaunchToTrace, programs: readonly ProgramId[]): ProgramTouched[] | undefined {
  const args = interpreterArgs(launch);
  const out: ProgramTouched[] = [];
  try {
    for (const program of programs) {
      const mine: ProgramTouched = { touched: new Map(), lanes: 0 };
      out.push(mine);
      const onAccess = (kind: string, param: string, index: number, _p: ProgramId, _lane: number, _span: unknown, active: boolean) => {
        mine.lanes++;
        if (!active) return;
        const key = `${kind}:${param}`;
        let set = mine.touched.get(key);
        if (!set) mine.touched.set(key, (set = new Set()));
        set.add(index);
      };
      interpret(launch.ir, launch.grid, args as Parameters<typeof interpret>[2], { programs: [program], onAccess, skipDots: true });
    }
    return out;
  } catch (err) {
    if (err instanceof InterpreterError) return undefined;
    throw err;
  }
}

/** Where the bytes go: all programs of a small grid, else the first TRACED_PROGRAMS (or as many as TRACE_BUDGET lanes allow). */
export function launchBytes(launch: LaunchToTrace, budget = TRACE_BUDGET): BytesReport | undefined {
  const total = launch.grid[0] * launch.grid[1] * launch.grid[2];
  try {
    const trace = traceAccesses({ ir: launch.ir, grid: launch.grid, args: interpreterArgs(launch), programs: programsToTrace(launch.grid, TRACED_PROGRAMS), budget });
    return bytesReport(trace, total, hasDot(launch.ir), launch.lines);
  } catch (err) {
    if (err instanceof InterpreterError) return undefined;
    throw err;
  }
}

function hasDot(ir: KernelIR): boolean {
  let found = false;
  forEachValue(ir.body, (v) => {
    if (v.op === "dot") found = true;
  });
  return found;
}
