// The web extension's worker (dist/web/worker.js), the browser's counterpart of worker.ts: it runs
// a kernel file's runs on the browser's WebGPU (or the interpreter, when the run asks for it or the
// browser has no WebGPU), or records one program for the debugger, so the file's own TypeScript (`args`, `reference`, `grid`) never runs in the
// extension host. One request per worker, except Python files: the extension keeps one worker for
// them, which starts Pyodide once and runs each file in turn (each in a fresh `__main__`, Kernel
// Lab's torch and triton reset: lib/_kernel_lab_runner.py), a debug launch's script as well as a Run's. The extension terminates a worker when it has answered (a
// Python worker only when it timed out, was cancelled or crashed). Built only for the browser
// (scripts/build.mjs), where runtime/host.ts is runtime/host-browser.ts.

import { configureBrowserHost } from "../../runtime/host-browser";
import { DebugLaunchError, traceProgram } from "../debug/debug-run";
import { EXIT_CODES } from "../report";
import { runFileWithOutcome } from "../run/run";
import type { FromWebWorker, ToWebWorker, WebWorkerContext } from "./web-protocol";
import { PythonCodes } from "../python/codes";
import { PYTHON_EXIT_CODES, runPythonFile } from "../python/session";
import { pyodideLoads, startWebPython, whyNoJspi, type PyodideFiles } from "../python/web-python";

interface WorkerScope {
  postMessage(message: FromWebWorker): void;
  addEventListener(type: "message", listener: (event: { data: ToWebWorker }) => void): void;
}
const scope = globalThis as unknown as WorkerScope;
const send = (message: FromWebWorker) => scope.postMessage(message);

const pendingReads = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
let nextRead = 1;

function readText(file: string): Promise<string> {
  const id = nextRead++;
  return new Promise((resolve, reject) => {
    pendingReads.set(id, { resolve, reject });
    send({ type: "read", id, file });
  });
}

const pendingFolders = new Map<number, (folder: boolean) => void>();

function isFolder(file: string): Promise<boolean> {
  const id = nextRead++;
  return new Promise((resolve) => {
    pendingFolders.set(id, resolve);
    send({ type: "is-folder", id, file });
  });
}

function setUp(context: WebWorkerContext): Map<string, string> {
  const cacheFiles = new Map(context.cacheFiles);
  configureBrowserHost({ readText, isFolder, cwd: context.cwd, env: context.env, cacheFiles, warn: (line) => send({ type: "console", category: "stderr", text: `${line}\n` }) });
  // The file's own console output goes to the extension's log (or the Debug Console).
  const to = (category: "stdout" | "stderr") => (...args: unknown[]) => send({ type: "console", category, text: `${args.map(show).join(" ")}\n` });
  Object.assign(console, { log: to("stdout"), info: to("stdout"), debug: to("stdout"), warn: to("stderr"), error: to("stderr") });
  return cacheFiles;
}

function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack ?? value.message;
  try {
    return ArrayBuffer.isView(value) ? `${value.constructor.name}(${(value as unknown as ArrayLike<number>).length})` : JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Why this browser can't run kernels on a GPU, or undefined when it can. */
async function whyNoWebGpu(): Promise<string | undefined> {
  const gpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (!gpu) return "this browser offers no WebGPU (navigator.gpu is undefined: not a secure context, or WebGPU is off)";
  const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" }).catch(() => null);
  return adapter ? undefined : "this browser's WebGPU has no adapter (navigator.gpu.requestAdapter() gave null)";
}

async function handle(message: ToWebWorker): Promise<void> {
  switch (message.type) {
    case "file": {
      const pending = pendingReads.get(message.id);
      pendingReads.delete(message.id);
      if (message.error !== undefined || message.text === undefined) pending?.reject(new Error(message.error ?? "no text"));
      else pending?.resolve(message.text);
      return;
    }
    case "folder": {
      pendingFolders.get(message.id)?.(message.folder);
      pendingFolders.delete(message.id);
      return;
    }
    case "run": {
      const cacheFiles = setUp(message.context);
      const { type: _type, file, text, ...options } = message.request;
      const noWebGpu = options.cpu ? undefined : await whyNoWebGpu();
      if (noWebGpu) send({ type: "no-webgpu", reason: noWebGpu });
      const cpu = options.cpu || noWebGpu !== undefined;
      const { report, outcome } = await runFileWithOutcome(file, { ...options, cpu, onProgress: (p) => send({ type: "progress", ...p }) }, text);
      // JSON round trip: NaN and Infinity become null exactly as in `kernel-lab run --json`.
      send({ type: "result", report: JSON.parse(JSON.stringify(report)), outcome, exitCode: EXIT_CODES[outcome], cacheFiles: [...cacheFiles] });
      return;
    }
    case "run-python": {
      setUp(message.context);
      const noJspi = whyNoJspi();
      if (noJspi) {
        send({ type: "error", code: PythonCodes.pythonInBrowser, message: `Kernel Lab can't run ${message.request.file.split("/").pop()} here: ${noJspi}.` });
        return;
      }
      const { request } = message;
      const noWebGpu = request.cpu ? undefined : await whyNoWebGpu();
      if (noWebGpu) send({ type: "no-webgpu", reason: noWebGpu });
      const { report, outcome } = await runPythonFile(
        request.file,
        {
          cpu: request.cpu || noWebGpu !== undefined,
          ...(request.bench ? { bench: request.bench } : {}),
          ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
          onStdout: (text) => send({ type: "output", stream: "stdout", text }),
          onStderr: (text) => send({ type: "output", stream: "stderr", text }),
        },
        () => startPython(message.pyodide && message.lib ? { pyodide: message.pyodide, lib: message.lib } : undefined),
      );
      send({ type: "python-result", report: JSON.parse(JSON.stringify(report)), outcome, exitCode: PYTHON_EXIT_CODES[outcome], pyodideLoads: pyodideLoads() });
      return;
    }
    case "debug": {
      setUp(message.context);
      const { python } = message;
      const noJspi = message.launch.file.endsWith(".py") ? whyNoJspi() : undefined;
      try {
        if (noJspi) throw new DebugLaunchError(`Kernel Lab can't run ${message.launch.file.split("/").pop()}'s script here: ${noJspi}.`);
        const print = (text: string, category: "stdout" | "stderr") => send({ type: "console", category, text });
        // A Python script runs on this worker's Pyodide: started by the run before it, else now.
        const trace = await traceProgram(message.launch, { start: () => startPython(python), print });
        send({ type: "trace", trace, pyodideLoads: pyodideLoads() });
      } catch (err) {
        if (!(err instanceof DebugLaunchError)) throw err;
        send({ type: "debug-error", message: err.message });
      }
      return;
    }
  }
}

/** Starts Pyodide: called only on the worker's first Python request (python/session.ts keeps it), which carries its files. */
function startPython(files: { pyodide: PyodideFiles; lib: Record<string, string> } | undefined) {
  if (!files) throw new Error("the first Python request of a worker carries Pyodide's files");
  return startWebPython(files.pyodide, files.lib);
}

scope.addEventListener("message", (event) => {
  handle(event.data).catch((err: unknown) => {
    send({ type: "error", message: err instanceof Error ? (err.stack ?? err.message) : String(err), code: "KL9300" });
  });
});
