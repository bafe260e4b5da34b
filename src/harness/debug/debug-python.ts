// One program instance of a Python script's launch, recorded for the debugger: the script runs to
// the kernel's first launch (python-capture.ts), the kernel is compiled for that launch's types
// and constexprs, and the chosen program is interpreted with a stop before each statement, as a
// kernel file's run is (debug-run.ts). A Python kernel is lowered to the TypeScript kernel
// language (src/python/), so the stops are recorded on that text, then moved onto the Python
// through the lowering's map: lines, columns and names are the Python file's.

import { formatDiagnostic, LineMap, locate, type LocatedDiagnostic } from "../../diagnostics/position";
import type { FilePlace, Span } from "../../diagnostics/diagnostic";
import { interpret, InterpreterError, type ProgramId } from "../../interpreter/interpret";
import type { KernelIR } from "../../ir/ir";
import { DEFAULT_TARGET } from "../../ir/target";
import { helpersOf, readPythonFile, type PythonFile, type PythonKernel } from "../../python";
import { pythonName, tsName } from "../../python/names";
import type { StorageArray } from "../../runtime";
import { bindLaunch } from "../python/launch";
import { compilerFor } from "../python/kernel-compiler";
import type { PythonProcess } from "../python/session";
import { accessMap, type AccessMapReport } from "./access-map";
import { traceAccesses } from "./access-trace";
import { DEFAULT_MAX_STOPS, DebugLaunchError, programIdOf, type DebugLaunch, type ProgramTrace } from "./debug-launch";
import { StopCapReached, StopRecorder, type DebugFrame, type DebugStop } from "./debug-recorder";
import { runToLaunch } from "./python-capture";

export async function tracePythonProgram(
  launch: DebugLaunch,
  file: string,
  shown: string,
  text: string,
  startPython: (() => PythonProcess) | undefined,
  print: (text: string, category: "stdout" | "stderr") => void,
): Promise<ProgramTrace> {
  const fail = (message: string): never => {
    throw new DebugLaunchError(message);
  };
  const failWith = (diagnostics: readonly LocatedDiagnostic[]): never => fail(diagnostics.map((d) => formatDiagnostic(d, text, shown)).join("\n"));
  const py = readPythonFile(shown, text);
  const syntax = py.diagnostics.filter((d) => d.severity === "error");
  if (syntax.length > 0) failWith(locate(shown, text, syntax));
  const kernel = chosenKernel(py, launch.kernel ?? launch.run, shown);
  if (launch.constexprs && Object.keys(launch.constexprs).length > 0) {
    fail(`a Python kernel is debugged with the constexprs its launch passes: change them at the ${kernel.name}[grid](…) call (the grid is computed from them there), not in the launch configuration`);
  }
  if (!startPython) fail(`debugging ${kernel.name} runs ${shown} on Kernel Lab's embedded Python, which this host can't start for the debugger; debug it in desktop VS Code, or use Run File here`);

  const { request, pyodide } = await runToLaunch(file, shown, text, kernel.name, startPython as () => PythonProcess, print);
  const bound = bindLaunch(shown, request, tsName);
  if ("error" in bound) return fail(bound.error);
  const compiler = compilerFor(shown, text);
  // Helpers of modules beside the script that the kernel calls: their text came with the launch.
  if (request.imports) compiler.addModules(request.imports);
  const result = compiler.compile(kernel.name, bound.types, bound.constexprs, { ...DEFAULT_TARGET, shaderF16: true });
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (!result.kernel || !result.source || result.typescript === undefined || errors.length > 0) return failWith(locate(shown, text, errors));
  const { ir } = result.kernel;
  const grid = request.grid;
  const programId = programIdOf(launch.programId, grid);
  const args: Record<string, StorageArray | number> = { ...bound.scalars };
  for (const [name, arg] of bound.tensors) args[name] = arg.data as StorageArray;

  const lines = new LineMap(text);
  const toPython = result.toPython;
  // Before the program runs (it may write to its inputs): its accesses over its whole run.
  const map = programAccesses(ir, grid, args, programId, new PythonLines(text, toPython));
  const recorder = new StopRecorder(result.source, ir, result.typescript, launch.maxStops ?? DEFAULT_MAX_STOPS);
  let truncated = false;
  try {
    interpret(ir, grid, args, { programs: [programId], onStatement: recorder.hook });
  } catch (err) {
    if (err instanceof StopCapReached) truncated = true;
    else if (err instanceof InterpreterError) recorder.recordError(err.span, err.message);
    else throw err;
  }
  const onPython = new PythonPlaces(py, kernel, result.typescript, toPython, lines, { origin: result.origin, name: result.externalName, file: (helper) => besideScript(file, shown, helper) });
  const constexprs = Object.fromEntries(Object.entries(bound.constexprs).flatMap(([k, v]) => (typeof v === "number" ? [[k, v]] : typeof v === "boolean" ? [[k, v ? 1 : 0]] : [])));
  return {
    file,
    kernel: kernel.name,
    launchLine: request.callLine,
    grid,
    programId,
    constexprs,
    stops: onPython.stops(recorder.stops),
    truncated,
    statementLines: onPython.statementLines(recorder.statementSpans(ir)),
    functionLines: onPython.functionLines(),
    ...(map ? { accessMap: map } : {}),
    pyodide,
  };
}

/** The kernel named, else the first the file launches, else its first (a helper only when named). */
function chosenKernel(py: PythonFile, name: string | undefined, shown: string): PythonKernel {
  const names = py.kernels.map((k) => k.name).join(", ") || "none";
  if (name !== undefined) {
    const found = py.kernels.find((k) => k.name === name);
    if (!found) throw new DebugLaunchError(`${shown} has no @triton.jit function '${name}' (its kernels: ${names})`);
    return found;
  }
  const launched = py.launches.map((l) => py.kernels.find((k) => k.name === l.kernel)).find((k) => k !== undefined);
  const kernel = launched ?? py.kernels.find((k) => !k.called);
  if (!kernel) throw new DebugLaunchError(`${shown} has no @triton.jit kernel to debug`);
  return kernel;
}

/** The access map of the program, on a copy of the arguments (the trace writes to it); undefined when the interpreter fails. */
function programAccesses(ir: KernelIR, grid: [number, number, number], args: Record<string, StorageArray | number>, program: ProgramId, lines: LineMap): AccessMapReport | undefined {
  const copy: Record<string, ArrayLike<number> | number> = {};
  for (const [k, v] of Object.entries(args)) copy[k] = typeof v === "number" ? v : v.slice();
  try {
    const trace = traceAccesses({ ir, grid, args: copy, programs: [program], detail: program });
    if (!trace.detail) return undefined;
    const lengths = new Map(Object.entries(copy).flatMap(([k, v]) => (typeof v === "number" ? [] : [[k, v.length] as const])));
    return accessMap(trace.detail, lengths, new Map(), lines);
  } catch (err) {
    if (err instanceof InterpreterError) return undefined;
    throw err;
  }
}

/** Offsets of the lowered TypeScript, answered with the Python line and column they came from. */
class PythonLines extends LineMap {
  private readonly python: LineMap;

  constructor(
    text: string,
    private readonly toPython: (span: Span) => Span,
  ) {
    super(text);
    this.python = new LineMap(text);
  }

  override at(offset: number) {
    return this.python.at(this.toPython({ start: offset, end: offset }).start);
  }
}

/**
 * A module's file as the run names it (relative to the working folder, as `shown` is), as a path
 * the editor opens: the script's own path with `shown` replaced by it. No Node API: the browser's
 * worker records programs too.
 */
function besideScript(file: string, shown: string, helper: string): string {
  if (/^([\\/]|[A-Za-z]:)/.test(helper) || !file.endsWith(shown)) return helper;
  return file.slice(0, file.length - shown.length) + helper;
}

/** Statements inside other modules' functions (externals.ts): their places there, their names as Python writes them. */
interface ExternalPlaces {
  origin?: (span: Span) => FilePlace | undefined;
  name?: (tsName: string) => string | undefined;
  file: (helper: string) => string;
}

/** Moves the recorder's stops (on the lowered TypeScript) onto the Python text. */
class PythonPlaces {
  /** Each function's Python names: a binding the lowering made up (none is shown) has none. */
  private readonly names = new Map<string, Set<string>>();
  private readonly functions: PythonKernel[];

  constructor(
    py: PythonFile,
    kernel: PythonKernel,
    private readonly typescript: string,
    private readonly toPython: (span: Span) => Span,
    private readonly lines: LineMap,
    private readonly externals: ExternalPlaces,
  ) {
    this.functions = [kernel, ...helpersOf(py, kernel)];
    for (const f of this.functions) this.names.set(tsName(f.name), new Set(py.text.slice(f.node.from, f.node.to).match(/[A-Za-z_]\w*/g) ?? []));
  }

  /**
   * One stop per Python statement reached: a declaration the lowering hoisted (`let total;`) is no
   * step, and TypeScript statements one Python statement became in a row are its one step (the first
   * of them: the state before it runs). A loop body's statement reached again is a new trip, kept.
   */
  stops(stops: readonly DebugStop[]): DebugStop[] {
    const out: DebugStop[] = [];
    let previous: { ts: Span; py: string } | undefined;
    // A declaration between two stops of one statement: the condition of an `if` ran before it (that `if`'s one step).
    let declared = false;
    for (const stop of stops) {
      if (stop.error === undefined && this.declarationOnly(stop.span)) {
        declared = true;
        continue;
      }
      const frames = stop.frames.map((f) => this.frame(f));
      // A statement inside another module's function: its place there tells it apart (its span is the call that leads there).
      const py = frames.map((f) => `${f.span.start}:${f.span.end}${f.file !== undefined ? `@${f.file}:${f.line}:${f.column}` : ""}`).join(" ");
      const merged = previous && previous.py === py && (declared || previous.ts.start !== stop.span.start || previous.ts.end !== stop.span.end);
      previous = { ts: stop.span, py };
      declared = false;
      if (merged && stop.error === undefined) continue;
      if (merged) out.pop();
      out.push({ ...frames[0], frames, ...(stop.error !== undefined ? { error: stop.error } : {}) });
    }
    return out;
  }

  statementLines(spans: readonly Span[]): number[] {
    const lines = new Set(spans.filter((s) => !this.declarationOnly(s)).map((s) => this.lines.at(this.place(s).start).line));
    return [...lines].sort((a, b) => a - b);
  }

  functionLines(): [number, number][] {
    return this.functions.map((f) => [this.lines.at(f.span.start).line, this.lines.at(Math.max(f.span.start, f.span.end - 1)).line]);
  }

  private frame(f: DebugFrame): DebugFrame {
    const span = this.place(f.span);
    const elsewhere = this.externals.origin?.({ start: f.span.start, end: f.span.start + 1 });
    if (elsewhere) {
      const bindings = f.bindings.map((b) => ({ ...b, name: pythonName(b.name) }));
      return { name: this.externals.name?.(f.name) ?? pythonName(f.name), span, line: elsewhere.line, column: elsewhere.column, file: this.externals.file(elsewhere.file), bindings };
    }
    const known = this.names.get(f.name);
    const bindings = f.bindings.filter((b) => known?.has(pythonName(b.name)) ?? true).map((b) => ({ ...b, name: pythonName(b.name) }));
    return { name: pythonName(f.name), span, ...this.lines.at(span.start), bindings };
  }

  /**
   * The Python range of a statement of the lowered text. A compound statement (`for`, `if`,
   * `while`) is no one written piece, only its keyword is: it is placed at its keyword.
   */
  private place(span: Span): Span {
    const whole = this.toPython(span);
    const first = this.toPython({ start: span.start, end: span.start + 1 });
    return whole.start <= first.start && first.end <= whole.end ? whole : first;
  }

  /** `let total;`: a name declared ahead of the Python statement that first assigns it. */
  private declarationOnly(span: Span): boolean {
    return /^let\s+[\w$]+(\s*,\s*[\w$]+)*\s*;?$/.test(this.typescript.slice(span.start, span.end));
  }
}
