// Messages between the web extension (editor/web/) and its Web Worker (web-worker.ts), which runs
// what the desktop runs in a child process: a kernel file's runs, or one program for the debugger.
// The worker has no file system: it asks the extension for each file it reads, and the cache
// files (the autotuner's choices) travel with the request and back with the answer.

import type { DebugLaunch, ProgramTrace } from "../debug/debug-run";
import type { ErrorMessage, OutputMessage, ProgressMessage, PythonResultMessage, PythonRunRequest, ResultMessage, RunRequest } from "./protocol";
import type { PyodideFiles } from "../python/web-python";

/** What the worker's surroundings are (runtime/host-browser.ts). */
export interface WebWorkerContext {
  /** The folder display paths are relative to (the workspace folder's path). */
  cwd: string;
  env: Record<string, string>;
  /** Cache files by path: the autotuner's choices of earlier runs. */
  cacheFiles: [string, string][];
}

export type ToWebWorker =
  | { type: "run"; request: RunRequest; context: WebWorkerContext }
  /**
   * A Python file's launch is recorded after its script ran up to it, on the worker's Pyodide: the
   * same worker as the Python runs', so `python` (Pyodide's files, as for `run-python`) comes only
   * with a worker's first Python request.
   */
  | { type: "debug"; launch: DebugLaunch; context: WebWorkerContext; python?: { pyodide: PyodideFiles; lib: Record<string, string> } }
  /**
   * A Python file. The worker starts Pyodide on its first such request, from Pyodide's files and
   * Kernel Lab's Python modules (lib path → text) sent with it (the worker can't fetch the
   * extension's files), and reuses it for every later one, which comes without them.
   */
  | { type: "run-python"; request: PythonRunRequest; context: WebWorkerContext; pyodide?: PyodideFiles; lib?: Record<string, string> }
  /** The answer to a `read`: the file's text, or why it can't be read. */
  | { type: "file"; id: number; text?: string; error?: string }
  /** The answer to an `is-folder`. */
  | { type: "folder"; id: number; folder: boolean };

export type FromWebWorker =
  | ProgressMessage
  | (ResultMessage & { cacheFiles: [string, string][] })
  | ErrorMessage
  /** `pyodideLoads`: how many times this worker has loaded Pyodide (1 once started: each later run reuses it). */
  | (PythonResultMessage & { pyodideLoads: number })
  | OutputMessage
  /** The worker needs a file (the kernel file, a file it imports). */
  | { type: "read"; id: number; file: string }
  /** The worker asks whether a path is a folder (`import pkg.mod` of a namespace package: a folder without __init__.py). */
  | { type: "is-folder"; id: number; file: string }
  /** What the file's own code printed (console.log in `args`, `reference` …). */
  | { type: "console"; category: "stdout" | "stderr"; text: string }
  /** A debug launch's record. */
  | { type: "trace"; trace: ProgramTrace; pyodideLoads: number }
  /** A debug launch that could not run: what to change. */
  | { type: "debug-error"; message: string }
  /** The browser has no WebGPU (no `navigator.gpu`, or no adapter): the run goes to the interpreter. */
  | { type: "no-webgpu"; reason: string };
