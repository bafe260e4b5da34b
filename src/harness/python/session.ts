// `kernel-lab run FILE.py` on the main thread: the GPU opened while Python starts (once per
// process, reused by every later run), the script sent to the Python thread, and each request it
// makes (a launch, a benchmark) answered here, where the GPU and the harness live. What the script
// prints is handed on as it arrives. Nothing throws at the caller: the outcome says how it ended.

import * as path from "node:path";
import type { LocatedDiagnostic } from "../../diagnostics/position";
import { NO_NEEDS, type CodegenOptions, type Target } from "../../ir/target";
import { displayPath, located, readKernelText } from "../load/load";
import { openDevice, requestGpu } from "../run/open-device";
import { Launcher, type ModuleSource } from "./launch";
import { host } from "../../runtime/host";
import type { BenchMode, LaunchRequest, Notice, Reply, Request, RunScript } from "./protocol";
import type { PythonFileReport, PythonPlot } from "./report";
import { PythonCodes } from "./codes";
import { compilerFor } from "./kernel-compiler";
import { assertNever } from "../../ir/never";
import { trace } from "../trace";
import { RunCodes } from "../codes";
import { DEFAULT_TIMEOUT_MS } from "../run/timeout";

/** The Python thread as the main thread sees it (thread-node.ts in Node). */
export interface PythonProcess {
  /** Hands the reply to request `id` to the waiting script; false when the script no longer waits on it. */
  answer(reply: Reply, id: number): boolean;
  post(command: RunScript): void;
  onNotice(listener: (notice: Notice) => void): void;
  onExit(listener: (why: string) => void): void;
  /** Ends the thread (a process that must exit: Node's worker threads keep some handles alive even unref'd). */
  stop(): void;
}

export type PythonOutcome = "ok" | "raised" | "compile-error" | "no-adapter" | "failure";

/** docs/LANGUAGE.md §4.1's exit codes. */
export const PYTHON_EXIT_CODES: Record<PythonOutcome, number> = { ok: 0, raised: 1, "compile-error": 2, "no-adapter": 3, failure: 4 };

export interface PythonRunOptions {
  cpu?: boolean;
  /** Default: full on a GPU, quick on a software adapter or the interpreter. */
  bench?: BenchMode;
  /** What the script writes, as it writes it. */
  onStdout?: (text: string) => void;
  onStderr?: (text: string) => void;
  /** The device is open and the script is about to run (the report has its adapter and bench mode). */
  onStart?: (report: PythonFileReport) => void;
  /** Answers a launch in the launcher's place where it gives a reply (the debugger takes the launch it debugs). */
  interceptLaunch?: (request: LaunchRequest) => Reply | undefined;
  /** Limit for one launch (default 120 s, as a kernel file's run and size): a kernel that never ends stops the run (KL3900). */
  timeoutMs?: number;
  /** `--tune-codegen`: @triton.autotune also tries the code generator's knobs (autotune.ts). */
  tuneCodegen?: boolean;
  /** `--retune`: tune afresh instead of taking the cached choice (with --tune-codegen, and @triton.autotune(cache_results=True)). */
  retune?: boolean;
  /** Tests only: the adapter's facts and code-generation options overridden (subgroup matrices emulated on lavapipe). */
  overrides?: { target?: Partial<Target>; codegen?: CodegenOptions };
}

type StartKind = "cold" | "snapshot";

interface Started {
  thread: PythonProcess;
  ready: Promise<StartKind>;
  /** The notices of the run in progress. */
  listener?: (notice: Notice) => void;
}

let python: Started | undefined;

/** The process's Python thread, started on first use. */
function pythonThread(start: () => PythonProcess): { started: Started; warm: boolean } {
  if (python) return { started: python, warm: true };
  const thread = start();
  let settle: { resolve(kind: StartKind): void; reject(err: Error): void } | undefined;
  const ready = new Promise<StartKind>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => {});
  const started: Started = { thread, ready };
  thread.onNotice((notice) => {
    if (notice.kind === "ready") settle?.resolve(notice.startKind ?? "cold");
    else if (notice.kind === "done" && notice.error?.type === "StartError") {
      settle?.reject(new Error(notice.error.traceback));
      // A Python that didn't start is not reused: the next run tries again.
      if (python === started) python = undefined;
      thread.stop();
    }
    else started.listener?.(notice);
  });
  thread.onExit((why) => {
    settle?.reject(new Error(why));
    if (python !== started) return;
    python = undefined;
    started.listener?.({ kind: "done", error: { traceback: `Kernel Lab's Python thread stopped: ${why}\n`, line: null, type: "PythonThreadExit" } });
  });
  python = started;
  return { started, warm: false };
}

/** Stops the process's Python thread, if one was started; a later run starts a new one. */
export function stopPython(): void {
  const started = python;
  python = undefined;
  started?.thread.stop();
}

export async function runPythonFile(fileArg: string, opts: PythonRunOptions, start: () => PythonProcess, text?: string): Promise<{ report: PythonFileReport; outcome: PythonOutcome }> {
  const absolute = path.resolve(fileArg);
  const file = displayPath(absolute);
  const requested = performance.now();
  const { started, warm } = pythonThread(start);
  const report: PythonFileReport = {
    file, adapter: null, diagnostics: [], launches: [], checks: [], stdout: "", plots: [],
    bench: { mode: opts.bench ?? "quick", chosen: opts.bench ? "flag" : "cpu" },
    pyodide: { startMs: 0, warm, startKind: warm ? "reused" : "cold" },
  };
  const done = (outcome: PythonOutcome, diagnostics: LocatedDiagnostic[] = []) => {
    report.diagnostics.push(...diagnostics);
    return { report, outcome };
  };
  const source = text ?? (await readKernelText(absolute, file));
  if (typeof source !== "string") return done("failure", [source]);
  // f16 is asked for where the script names it (Dawn's toggles are chosen when the GPU opens), with
  // what an f16 tl.dot needs too (subgroup matrices: tensor cores): a script's kernels and torch's
  // ops on GPU tensors are known only as they launch. Without it tutorial 03 in f16 ran on the
  // H100 at 29 TFLOP/s (bench/NOTES.md §36).
  const needs = /float16|\.half\(|bfloat16/.test(source) ? { ...NO_NEEDS, f16: true, f16Dot: true } : NO_NEEDS;
  const gpuReady = opts.cpu ? undefined : requestGpu(() => {}, needs);
  // The file's kernels are read (Lezer's parse, ~0.3 s the first time) while Python and the GPU start.
  const compiler = compilerFor(file, source);
  trace("the file's kernels read");
  try {
    const kind = await started.ready;
    trace("Python ready");
    if (!warm) report.pyodide.startKind = kind;
  } catch (err) {
    return done("failure", [located(file, PythonCodes.pythonStart, `Kernel Lab could not start its embedded Python (Pyodide): ${(err as Error).message}`)]);
  }
  report.pyodide.startMs = Math.round(performance.now() - requested);
  const device = await openDevice(gpuReady, file, needs);
  if ("diagnostic" in device) return done(device.outcome === "no-adapter" ? "no-adapter" : "failure", [device.diagnostic]);
  report.adapter = device.adapter;
  if (opts.overrides?.target) device.target = { ...device.target, ...opts.overrides.target };
  if (!opts.bench) {
    const software = device.gpu?.software ?? true;
    report.bench = { mode: software ? "quick" : "full", chosen: device.gpu ? (software ? "software-adapter" : "gpu") : "cpu" };
  }

  opts.onStart?.(report);
  const tuning = { tuneCodegen: !!opts.tuneCodegen, retune: !!opts.retune, codegen: opts.overrides?.codegen ?? {} };
  // Each package's data files listed once a run: the package's read and each of its files' ask for them.
  const listed = new Map<string, Promise<string[]>>();
  const dataOf = (base: string) => listed.get(base) ?? listed.set(base, packageData(base)).get(base)!;
  const launcher = new Launcher(file, source, device, report, compiler, (module, data, root) => readBesideScript(root ?? path.dirname(absolute), module, dataOf, data), tuning);
  const limit = new LaunchLimit(file, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const ended = new Promise<Extract<Notice, { kind: "done" }>>((resolve) => {
    started.listener = (notice) => {
      switch (notice.kind) {
        case "stdout":
          report.stdout += notice.text;
          opts.onStdout?.(notice.text);
          return;
        case "stderr":
          opts.onStderr?.(notice.text);
          return;
        case "check":
          report.checks.push({ line: notice.line, kind: notice.check, passed: notice.passed, maxAbsDiff: notice.maxAbsDiff });
          return;
        case "plot": {
          const plot = toPlot(notice.title, notice.data);
          if (plot) report.plots.push(plot);
          return;
        }
        case "request": {
          const taken = notice.request.kind === "launch" ? opts.interceptLaunch?.(notice.request) : undefined;
          const give = (reply: Reply) => {
            if (!started.thread.answer(reply, notice.id)) trace(`a late answer to request ${notice.id} (${notice.request.kind}) dropped: the script no longer waits on it`);
          };
          if (taken) return give(taken);
          void limit.within(notice.request, respond(launcher, notice.request)).then(give);
          return;
        }
        case "free":
          launcher.free(notice.storage);
          return;
        case "done":
          resolve(notice);
          return;
        case "ready":
          return;
        default:
          return assertNever(notice);
      }
    };
  });
  started.thread.post({ kind: "run", file: absolute, displayName: file, text: source, bench: report.bench.mode, cpu: !!opts.cpu, environ: host.scriptEnvironment() });
  trace("script started");
  const result = await ended;
  trace("script finished");
  started.listener = undefined;
  launcher.dispose();
  report.gpuCopies = { ...launcher.copies };
  report.diagnostics.push(...launcher.diagnostics, ...limit.diagnostics);
  if (!result.error) return done(limit.diagnostics.length > 0 ? "failure" : "ok");
  report.traceback = result.error.traceback;
  report.exception = { type: result.error.type, line: result.error.line };
  if (result.error.type === "PythonThreadExit" || limit.diagnostics.length > 0) return done("failure");
  return done(result.error.launchError === "compile" ? "compile-error" : "raised");
}

/**
 * `import pkg.mod` as `python FILE.py` resolves it from the script's folder: pkg/mod/__init__.py, else pkg/mod.py,
 * else the folder pkg/mod as a namespace package. With `data`: that data file of the package (one packageData listed).
 */
async function readBesideScript(folder: string, module: string, packageData: (base: string) => Promise<string[]>, data?: string): Promise<ModuleSource | null> {
  if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(module) || !path.isAbsolute(folder)) return null;
  const base = path.join(folder, ...module.split("."));
  if (data !== undefined) {
    if (!(await packageData(base)).includes(data)) return null;
    try {
      return { text: await host.readText(path.join(base, ...data.split("/"))) };
    } catch {
      return null;
    }
  }
  for (const [file, isPackage] of [[path.join(base, "__init__.py"), true], [`${base}.py`, false]] as const) {
    let text: string;
    try {
      text = await host.readText(file);
    } catch {
      // Not there: the next candidate, then Python's ModuleNotFoundError.
      continue;
    }
    if (!isPackage) return { file: displayPath(file), text, package: false };
    const data = await packageData(base);
    return { file: displayPath(file), text, package: true, ...(data.length > 0 ? { data } : {}) };
  }
  return (await host.isFolder(base)) ? { file: displayPath(base), namespace: true } : null;
}

/** Limits on a package's data files (ModuleSource.data): each file's bytes (its reply's JSON fits REPLY_BYTES), all of them together, how deep. */
const DATA_FILE_BYTES = 768 << 10;
const DATA_TOTAL_BYTES = 16 << 20;
const DATA_DEPTH = 3;

/**
 * A package's data files (ModuleSource.data): its folder's files that aren't Python, and those of its sub-folders
 * that hold no .py file (a folder that does is a package or a namespace package, whose modules are asked for as
 * they are imported; writing it here first would make it one before its __init__.py is read), within the limits
 * above: their paths relative to the package's folder.
 */
async function packageData(folder: string): Promise<string[]> {
  const data: string[] = [];
  let total = 0;
  const visit = async (dir: string, relative: string[], depth: number): Promise<void> => {
    for (const entry of await host.listFolder(dir)) {
      if (entry.name.startsWith(".") || entry.name === "__pycache__") continue;
      const full = path.join(dir, entry.name);
      if (entry.folder) {
        if (depth >= DATA_DEPTH) continue;
        const inside = await host.listFolder(full);
        if (inside.some((e) => !e.folder && e.name.endsWith(".py"))) continue;
        await visit(full, [...relative, entry.name], depth + 1);
        continue;
      }
      if (/\.(py|pyc|pyi|so|pyd)$/.test(entry.name) || entry.bytes > DATA_FILE_BYTES || total + entry.bytes > DATA_TOTAL_BYTES) continue;
      total += entry.bytes;
      data.push([...relative, entry.name].join("/"));
    }
  };
  await visit(folder, [], 0);
  return data;
}

async function respond(launcher: Launcher, request: Request): Promise<Reply> {
  try {
    return await launcher.handle(request);
  } catch (err) {
    return { kind: "error", error: "runtime", message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The time limit of one launch: a launch still running at the limit is answered with an error
 * (Python raises it at the launch's line) and the run ends as a failure with KL3900, which says
 * which launch and how to raise the limit. (With --cpu the interpreter's step limit, KL3102, comes first.)
 */
class LaunchLimit {
  readonly diagnostics: LocatedDiagnostic[] = [];

  constructor(
    private readonly file: string,
    private readonly ms: number,
  ) {}

  within(request: Request, work: Promise<Reply>): Promise<Reply> {
    if (request.kind !== "launch") return work;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<Reply>((resolve) => {
      timer = setTimeout(() => {
        const message =
          `the launch of ${request.kernel} at line ${request.callLine} (grid [${request.grid.join(", ")}]) did not finish within ${this.ms / 1000} s: ` +
          `a loop of the kernel that never ends, or more work than this GPU does in that time. Check the kernel's loops, or raise the limit ` +
          `with kernel-lab run --timeout SECONDS (kernelLab.timeoutSeconds in the editor).`;
        this.diagnostics.push(located(this.file, RunCodes.timeout, message, Math.max(1, request.callLine)));
        resolve({ kind: "error", error: "runtime", message: `${this.file}:${request.callLine}: ${request.kernel}'s launch did not finish within ${this.ms / 1000} s (${RunCodes.timeout})` });
      }, this.ms);
      // In Node the limit alone must not keep the process alive; a browser's timers are plain numbers.
      (timer as { unref?: () => void }).unref?.();
    });
    return Promise.race([work, limit]).finally(() => clearTimeout(timer));
  }
}

/** The plot a perf_report sent, checked (it crossed from Python as plain data). */
function toPlot(title: string, data: unknown): PythonPlot | undefined {
  const d = data as Partial<Record<keyof PythonPlot, unknown>> | null;
  if (typeof d !== "object" || d === null || !Array.isArray(d.columns) || !Array.isArray(d.rows)) return undefined;
  const rows = d.rows.filter((r): r is unknown[] => Array.isArray(r)).map((r) => r.map((v) => (typeof v === "number" ? v : Number(v))));
  return {
    title,
    columns: d.columns.map(String),
    rows,
    xlabel: typeof d.xlabel === "string" ? d.xlabel : String(d.columns[0] ?? "x"),
    ylabel: typeof d.ylabel === "string" ? d.ylabel : "",
    xLog: d.xLog === true,
    yLog: d.yLog === true,
  };
}
