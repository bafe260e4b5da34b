// One program instance of a run, interpreted on the CPU and recorded for the debugger
// (editor/debug/): the file loaded and its run's arguments built as a run does (load.ts,
// args.ts), the kernel compiled for the run's constexprs, then only the chosen program
// interpreted, a stop recorded before each TypeScript statement (debug-recorder.ts).
// No GPU is opened. Every failure is a DebugLaunchError whose message says what to change.

import * as path from "node:path";
import { BUILTINS } from "../../builtins";
import { compileKernel, parseKernelFile } from "../../compile";
import { formatDiagnostic, LineMap, locate, type LocatedDiagnostic } from "../../diagnostics/position";
import { programAccessMap } from "./analyse-launch";
import { evaluateShapes } from "../run/shapes";
import { interpret, InterpreterError } from "../../interpreter/interpret";
import type { PointeeDtype } from "../../ir/ir";
import { DEFAULT_TARGET } from "../../ir/target";
import type { HostArray } from "../../language";
import type { StorageArray } from "../../runtime";
import { checkRunDefinition, checkSharedFields, evaluateGrid, makeArgs } from "../run/args";
import { atSize, hasSizeConstexprs } from "../run/size-constexprs";
import { RunDefinitionError } from "../codes";
import { StopCapReached, StopRecorder } from "./debug-recorder";
import { DEFAULT_MAX_STOPS, DebugLaunchError, programIdOf, type DebugLaunch, type ProgramTrace } from "./debug-launch";
import { pointerParams, roundToF16, toStorage } from "../run/gpu-args";
import { hasLaunches } from "../run/launches";
import { displayPath, loadKernelFile, readKernelText } from "../load/load";
import { resolveKernel } from "../run/resolve-runs";
import type { PythonProcess } from "../python/session";
import { tracePythonProgram } from "./debug-python";

export type { DebugBinding, DebugFrame, DebugStop } from "./debug-recorder";
export { DEFAULT_MAX_STOPS, DebugLaunchError, type DebugLaunch, type ProgramTrace } from "./debug-launch";

/** How a Python file's script is run up to its launch: the host's Python thread, and where the script's output goes. */
export interface DebugPython {
  /** Undefined where the host can't start Python for the debugger (debugging a `.py` file then says so). */
  start?: () => PythonProcess;
  print: (text: string, category: "stdout" | "stderr") => void;
}

export async function traceProgram(launch: DebugLaunch, python: DebugPython = { print: () => {} }): Promise<ProgramTrace> {
  const absolute = path.resolve(launch.file);
  const shown = displayPath(absolute);
  const fail = (message: string): never => {
    throw new DebugLaunchError(message);
  };
  const failWith = (diagnostics: readonly LocatedDiagnostic[], text?: string): never =>
    fail(diagnostics.map((d) => formatDiagnostic(d, text)).join("\n"));

  const text = await readKernelText(absolute, shown);
  if (typeof text !== "string") return failWith([text]);
  if (absolute.endsWith(".py")) return tracePythonProgram(launch, absolute, shown, text, python.start, python.print);
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
    const programId = programIdOf(launch.programId, grid);
    const args = makeArgs(run, { name: program.name, params: program.params }, size);
    const dtypes = new Map(pointerParams(program.params).map((p) => [p.name, p.dtype] as const));
    for (const p of pointerParams(program.params)) if (p.dtype === "f16" || p.dtype === "bf16") roundToF16(args[p.name] as HostArray, p.dtype);
    const cpuArgs: Record<string, StorageArray | number> = {};
    for (const [k, v] of Object.entries(args)) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, dtypes.get(k) as PointeeDtype);

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
