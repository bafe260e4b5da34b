// The Debug Adapter Protocol session of `"type": "kernel-lab"`: one program instance of a run,
// recorded then replayed. The interpreter is synchronous, so rather than pausing it mid-run, the
// launch runs the chosen program to its end (or a stop cap) with a stop recorded before each
// TypeScript statement (harness/debug/debug-run.ts); continue, next and the steps back then only move
// through that record. A device function is inlined, yet its statements are stops of a frame
// above its caller's: step in enters it, next steps over it, step out runs to its caller.
// The recording is injected (`DebugHost`): on the desktop this session runs in its own Node
// process (adapter-main.ts) and records there; in the browser it runs inline in the extension
// host and a Web Worker records (web/web-worker-runner.ts). Either way the run's args execute the
// file's TypeScript outside the extension host, as a run's worker does. So this file imports no
// Node module.

import { Breakpoint, InitializedEvent, LoggingDebugSession, OutputEvent, Source, StackFrame, StoppedEvent, TerminatedEvent, Thread } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { DebugLaunch, ProgramTrace } from "../../harness/debug/debug-run";
import type { DebugStop } from "../../harness/debug/debug-recorder";
import { REFS_PER_FRAME, VariableTable } from "./variables";

/** The launch configuration's fields (package.json `contributes.debuggers[0].configurationAttributes`). */
export interface KernelLaunchArguments extends DebugProtocol.LaunchRequestArguments {
  program: string;
  run?: string;
  kernel?: string;
  size?: number;
  programId?: number[] | number;
  constexprs?: Record<string, number>;
  stopOnEntry?: boolean;
  maxSteps?: number;
}

const THREAD = 1;

/** Where the program is recorded, and how paths compare there. */
export interface DebugHost {
  /**
   * Records the launch's program; `print` gets what the file's own code prints (console.log in
   * `args` …). A launch that can't run (no such run, compile errors…) is `{ launchError }`, saying
   * what to change; anything thrown is an internal error.
   */
  record(launch: DebugLaunch, print: (text: string, category: "stdout" | "stderr") => void): Promise<ProgramTrace | { launchError: string }>;
  /** Whether a breakpoint's `source.path` names the recorded file (`trace.file`). */
  isFile(sourcePath: string, file: string): boolean;
}

export class KernelDebugSession extends LoggingDebugSession {
  private trace: ProgramTrace | undefined;
  /** Index of the current stop in trace.stops; -1 before the first. */
  private at = -1;
  private breakpointLines = new Set<number>();
  /** Breakpoints in other modules' files the program steps through (a stop's `file` → its lines). */
  private readonly helperBreakpoints = new Map<string, Set<number>>();
  /** One table per frame of the current stop, innermost first (frame ids are index + 1). */
  private tables: VariableTable[] = [];
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((resolve) => (this.configured = resolve));

  constructor(private readonly host: DebugHost) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsStepBack: true,
      supportsEvaluateForHovers: true,
    };
    this.sendResponse(response);
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.configured();
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, args: KernelLaunchArguments): Promise<void> {
    const launch: DebugLaunch = {
      file: args.program,
      run: args.run,
      kernel: args.kernel,
      size: args.size,
      programId: typeof args.programId === "number" ? [args.programId] : args.programId,
      constexprs: args.constexprs,
      maxStops: args.maxSteps,
    };
    let recorded: ProgramTrace | { launchError: string };
    try {
      recorded = await this.host.record(launch, (text, category) => this.output(text, category));
    } catch (err) {
      recorded = { launchError: `internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}` };
    }
    if ("launchError" in recorded) {
      this.sendErrorResponse(response, { id: 1, format: `Kernel Lab could not debug ${baseName(args.program)}: ${recorded.launchError}`, showUser: true });
      return;
    }
    const t = (this.trace = recorded);
    this.output(
      `Debugging ${t.kernel}, program (${t.programId.join(", ")}) of ${origin(t)} (grid [${t.grid.join(", ")}]) ` +
        `on the CPU interpreter: ${t.stops.length} steps recorded${t.truncated ? ` (stopped recording there: raise maxSteps for more)` : ""}.\n`,
    );
    if (t.pyodide) this.output(`${pythonStart(t.pyodide)}\n`);
    this.sendEvent(new InitializedEvent());
    await this.configurationDone;
    this.sendResponse(response);
    if (args.stopOnEntry && t.stops.length > 0) this.stopAt(0, "entry");
    else this.runForward();
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const requested = (args.breakpoints ?? []).map((b) => this.convertClientLineToDebugger(b.line));
    const ours = this.trace && args.source.path !== undefined && this.host.isFile(args.source.path, this.trace.file);
    // Another module's file whose @triton.jit functions the program runs (a Python kernel's helpers): the lines it stops on there.
    const path = args.source.path;
    const helper = !ours && path !== undefined ? this.trace?.stops.find((s) => s.file !== undefined && this.host.isFile(path, s.file))?.file : undefined;
    const helperLines = new Set(helper === undefined ? [] : (this.trace?.stops ?? []).filter((s) => s.file === helper).map((s) => s.line));
    const lines = ours ? requested.map((line) => this.statementLineNear(line)) : requested.map((line) => (helperLines.has(line) ? line : undefined));
    if (ours) this.breakpointLines = new Set(lines.filter((l): l is number => l !== undefined));
    else if (helper !== undefined) this.helperBreakpoints.set(helper, new Set(lines.filter((l): l is number => l !== undefined)));
    response.body = {
      breakpoints: lines.map((line, i) => {
        const bp: DebugProtocol.Breakpoint = new Breakpoint(line !== undefined, this.convertDebuggerLineToClient(line ?? requested[i]));
        if (line === undefined) bp.message = ours ? "no kernel statement here: breakpoints go on the lines of a kernel's (or a device function's) body" : helper !== undefined ? "the debugged program runs no statement of this file here" : "not the file being debugged";
        return bp;
      }),
    };
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const id = this.trace?.programId.join(", ") ?? "0, 0, 0";
    response.body = { threads: [new Thread(THREAD, `program (${id})`)] };
    this.sendResponse(response);
  }

  /**
   * A stop inside another module's function (its line is that file's) is on a breakpoint set in
   * that file, or where it is the first stop of the debugged file's line that calls it (a statement
   * whose first step runs inside the helper: `x = tle.load_block(…)`).
   */
  private onBreakpoint(stops: readonly DebugStop[], j: number): boolean {
    const ownLine = (stop: DebugStop | undefined) => stop?.frames.find((f) => f.file === undefined)?.line;
    const stop = stops[j];
    if (stop.file === undefined) return this.breakpointLines.has(stop.line);
    if (this.helperBreakpoints.get(stop.file)?.has(stop.line)) return true;
    const line = ownLine(stop);
    return line !== undefined && this.breakpointLines.has(line) && ownLine(stops[j - 1]) !== line;
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse): void {
    const t = this.trace;
    const stop = t?.stops[this.at];
    if (!t || !stop) {
      response.body = { stackFrames: [], totalFrames: 0 };
    } else {
      const frames = stop.frames.map((f, i) => {
        const name = i === stop.frames.length - 1 ? `${f.name} · program (${t.programId.join(", ")})` : `${f.name} (device function)`;
        // A frame inside another module's @triton.jit function shows that module's file.
        const file = f.file ?? t.file;
        return new StackFrame(i + 1, name, new Source(baseName(file), file), this.convertDebuggerLineToClient(f.line), this.convertDebuggerColumnToClient(f.column));
      });
      response.body = { stackFrames: frames, totalFrames: frames.length };
    }
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    response.body = { scopes: this.tables[args.frameId - 1]?.scopes() ?? [] };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const table = this.tables[Math.floor(args.variablesReference / REFS_PER_FRAME) - 1];
    response.body = { variables: table?.variables(args.variablesReference) ?? [] };
    this.sendResponse(response);
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const found = this.tables[(args.frameId ?? 1) - 1]?.lookup(args.expression.trim());
    if (!found) {
      this.sendErrorResponse(response, { id: 2, format: `'${args.expression}' is not a name bound here (the debugger shows the kernel's names, it does not evaluate expressions)` });
      return;
    }
    response.body = { result: found.value, type: found.type, variablesReference: found.variablesReference };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.runForward();
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.sendResponse(response);
    this.runForward(this.depth());
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.sendResponse(response);
    this.stepTo(this.at + 1);
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.sendResponse(response);
    this.runForward(this.depth() - 1);
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.sendResponse(response);
    this.stopAt(Math.max(0, this.at - 1), "step");
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.sendResponse(response);
    const stops = this.trace?.stops ?? [];
    let j = this.at - 1;
    while (j > 0 && !this.onBreakpoint(stops, j)) j--;
    this.stopAt(Math.max(0, j), j > 0 ? "breakpoint" : "entry");
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    this.sendResponse(response);
  }

  /**
   * To the next stop on a breakpoint line (or the failing one), or with `depth` given, the next
   * stop at most that many frames deep (next: the same frame; step out: its caller); past the
   * last stop, the session ends.
   */
  private runForward(depth?: number): void {
    const stops = this.trace?.stops ?? [];
    for (let j = this.at + 1; j < stops.length; j++) {
      if (stops[j].error !== undefined) return this.stopAt(j, "exception");
      if (this.onBreakpoint(stops, j)) return this.stopAt(j, "breakpoint");
      if (depth !== undefined && stops[j].frames.length <= depth) return this.stopAt(j, "step");
    }
    this.finish();
  }

  private depth(): number {
    return this.trace?.stops[this.at]?.frames.length ?? 1;
  }

  private stepTo(j: number): void {
    const stop = this.trace?.stops[j];
    if (!stop) return this.finish();
    this.stopAt(j, stop.error !== undefined ? "exception" : "step");
  }

  private stopAt(j: number, reason: string): void {
    const t = this.trace;
    const stop = t?.stops[j];
    if (!t || !stop) return this.finish();
    this.at = j;
    this.tables = stop.frames.map((f, i) => new VariableTable(t, f, (i + 1) * REFS_PER_FRAME));
    const event = new StoppedEvent(reason, THREAD) as DebugProtocol.StoppedEvent;
    if (stop.error !== undefined) {
      event.body.text = stop.error;
      event.body.description = "The interpreter stopped the program here";
      this.output(`${stop.error}\n`, "stderr");
    }
    this.sendEvent(event);
  }

  private finish(): void {
    const t = this.trace;
    if (t) {
      this.at = t.stops.length;
      const end = t.truncated ? `the last of the ${t.stops.length} recorded steps (maxSteps); the program went on` : "the end of the program";
      this.output(`${t.kernel}, program (${t.programId.join(", ")}): reached ${end}.\n`);
    }
    this.sendEvent(new TerminatedEvent());
  }

  private statementLineNear(line: number): number | undefined {
    const t = this.trace;
    const range = t?.functionLines.find(([first, last]) => first <= line && line <= last);
    if (!t || !range) return undefined;
    const inRange = t.statementLines.filter((l) => range[0] <= l && l <= range[1]);
    return inRange.find((l) => l >= line) ?? inRange.filter((l) => l < line).at(-1);
  }

  private output(text: string, category: "console" | "stdout" | "stderr" = "console"): void {
    this.sendEvent(new OutputEvent(text, category));
  }
}

/** What the program was launched by: a kernel file's run at a size, or a Python script's launch. */
function origin(t: ProgramTrace): string {
  if (t.launchLine !== undefined) return `its first launch, at line ${t.launchLine} of ${baseName(t.file)}`;
  return `run '${t.run}' (size ${t.size})`;
}

/** The file's name, after the last `/` (or `\\` on Windows). */
function baseName(file: string): string {
  return file.slice(file.search(/[^\\/]*$/));
}

/** How Kernel Lab's Python started to run the script to the launch (a second start in the browser is seconds). */
function pythonStart(pyodide: NonNullable<ProgramTrace["pyodide"]>): string {
  const how = pyodide.warm ? "already running (reused)" : `started in ${(pyodide.startMs / 1000).toFixed(1)} s (${pyodide.startKind})`;
  return `The script ran to the launch on Kernel Lab's Python (Pyodide), ${how}.`;
}
