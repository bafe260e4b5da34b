// One program instance of a run, interpreted on the CPU and recorded for the debugger
// (editor/debug/): the file loaded and its run's arguments built as a run does (load.ts,
// args.ts), the kernel compiled for the run's constexprs, then only the chosen program
// interpreted, a stop recorded before each TypeScript statement (debug-recorder.ts).
// No GPU is opened. Every failure is a DebugLaunchError whose message says what to change.

import * as path from "node:path";
import { BUILTINS } from "../../builtins";
import { compileKernel, parseKernelFile } from "../../compile";
import { formatDiagnostic, LineMap, locate, type LocatedDiagnostic } from "../../diagnostics/position";
import type { AccessMapReport } from "./access-map";
import { programAccessMap } from "./analyse-launch";
import { evaluateShapes } from "../run/shapes";
import { interpret, InterpreterError, type ProgramId } from "../../interpreter/interpret";
import type { NumDtype } from "../../ir/ir";
import { DEFAULT_TARGET } from "../../ir/target";
import type { HostArray } from "../../language";
import type { StorageArray } from "../../runtime";
import { checkRunDefinition, checkSharedFields, evaluateGrid, makeArgs } from "../run/args";
import { atSize, hasSizeConstexprs } from "../run/size-constexprs";
import { RunDefinitionError } from "../codes";
import { StopCapReached, StopRecorder, type DebugStop } from "./debug-recorder";
import { pointerParams, roundToF16, toStorage } from "../run/gpu-args";
import { hasLaunches } from "../run/launches";
import { displayPath, loadKernelFile, readKernelText } from "../load/load";
import { resolveKernel } from "../run/resolve-runs";

export type { DebugBinding, DebugFrame, DebugStop } from "./debug-recorder";

/** What a debug launch configuration asks for (package.json `contributes.debuggers`). */
export interface DebugLaunch {
  file: string;
  /** The run's name or export name; default the file's first run. */
  run?: string;
  /** Default the run's first size. */
  size?: number;
  /** Default [0, 0, 0]; a shorter list is padded with zeros. */
  programId?: readonly number[];
  /** Merged over the run's constexprs (e.g. a bigger BLOCK_SIZE); the grid sees them too. */
  constexprs?: Record<string, number>;
  /** Most stops recorded before the rest of the program is cut off. */
  maxStops?: number;
}

export interface ProgramTrace {
  file: string;
  kernel: string;
  run: string;
  size: number;
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
}

export const DEFAULT_MAX_STOPS = 10_000;

export class DebugLaunchError extends Error {}

export async function traceProgram(launch: DebugLaunch): Promise<ProgramTrace> {
  const absolute = path.resolve(launch.file);
  const shown = displayPath(absolute);
  const fail = (message: string): never => {
    throw new DebugLaunchError(message);
  };
  const failWith = (diagnostics: readonly LocatedDiagnostic[], text?: string): never =>
    fail(diagnostics.map((d) => formatDiagnostic(d, text)).join("\n"));

  const text = await readKernelText(absolute, shown);
  if (typeof text !== "string") return failWith([text]);
  const parsed = parseKernelFile(shown, text);
  if (parsed.diagnostics.some((d) => d.severity === "error")) failWith(locate(shown, text, parsed.diagnostics), text);
  const loaded = await loadKernelFile(absolute, text);
  if (loaded.diagnostics.length > 0) failWith(loaded.diagnostics, text);
  const names = loaded.runs.map((r) => r.name).join(", ") || "none";
  const loadedRun = launch.run === undefined ? loaded.runs[0] : loaded.runs.find((r) => r.name === launch.run || r.exportName === launch.run);
  if (!loadedRun) return fail(launch.run === undefined ? `${shown} exports no run to debug; export one with defineRun(...)` : `${shown} has no run '${launch.run}' (its runs: ${names})`);
  if (hasLaunches(loadedRun)) fail(`run '${loadedRun.name}' has several launches; the debugger runs single-kernel runs only`);

  try {
    const kernel = resolveKernel(loadedRun, loaded.kernels, parsed);
    const size = launch.size ?? checkSharedFields(loadedRun.name, loadedRun.definition as unknown as Record<string, unknown>).sizes[0];
    if (!Number.isInteger(size) || size <= 0) fail(`size must be a positive integer, got ${size}`);
    // Constexprs that are a function of the size are those of the size debugged.
    const defined = checkRunDefinition(hasSizeConstexprs(loadedRun) ? atSize(loadedRun, size) : loadedRun, kernel, new Set(Object.keys(BUILTINS)));
    // As with --cpu, a run with configs runs its first one.
    const constexprs = { ...(defined.configs ? defined.configs[0] : defined.constexprs), ...launch.constexprs };
    const run = { ...defined, constexprs };
    const compiled = compileKernel(kernel, constexprs, { ...DEFAULT_TARGET, shaderF16: true });
    const errors = compiled.diagnostics.filter((d) => d.severity === "error");
    if (!compiled.kernel || errors.length > 0) return failWith(locate(shown, text, errors), text);
    const program = compiled.kernel;

    const grid = evaluateGrid(run, size);
    const programId = programIdOf(launch.programId, grid, fail);
    const args = makeArgs(run, { name: program.name, params: program.params }, size);
    const dtypes = new Map(pointerParams(program.params).map((p) => [p.name, p.dtype] as const));
    for (const p of pointerParams(program.params)) if (p.dtype === "f16") roundToF16(args[p.name] as HostArray);
    const cpuArgs: Record<string, StorageArray | number> = {};
    for (const [k, v] of Object.entries(args)) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, dtypes.get(k) as NumDtype);

    // Before the program runs (it may write to its inputs): the whole program's accesses, from a run of its own.
    const map = programAccessMap({ ir: program.ir, grid, args, dtypes, lines: new LineMap(text), shapes: evaluateShapes(run, size, args) }, programId);
    const recorder = new StopRecorder(kernel, program.ir, text, launch.maxStops ?? DEFAULT_MAX_STOPS);
    let truncated = false;
    try {
      interpret(program.ir, grid, cpuArgs, { programs: [programId], onStatement: recorder.hook });
    } catch (err) {
      if (err instanceof StopCapReached) truncated = true;
      else if (err instanceof InterpreterError) recorder.recordError(err.span, err.message);
      else throw err;
    }
    return {
      file: absolute,
      kernel: program.name,
      run: run.name,
      size,
      grid,
      programId,
      constexprs,
      stops: recorder.stops,
      truncated,
      statementLines: recorder.statementLines(program.ir),
      functionLines: recorder.functionLines(),
      ...(map ? { accessMap: map } : {}),
    };
  } catch (err) {
    if (err instanceof RunDefinitionError || err instanceof DebugLaunchError) throw new DebugLaunchError(err.message);
    throw err;
  }
}

function programIdOf(given: readonly number[] | undefined, grid: [number, number, number], fail: (m: string) => never): ProgramId {
  const id = [0, 1, 2].map((axis) => given?.[axis] ?? 0) as [number, number, number];
  const inside = id.every((v, axis) => Number.isInteger(v) && v >= 0 && v < grid[axis]);
  if (!inside) fail(`program (${id.join(", ")}) is not in the grid [${grid.join(", ")}]; pick each id from 0 to the grid's extent − 1`);
  return id;
}
