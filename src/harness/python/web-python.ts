// Python in the browser's worker (VS Code for the Web): Pyodide loaded from the bytes the extension
// sends (the worker can fetch nothing of the extension's own: its files are read through
// `vscode.workspace.fs` and posted here), run on the worker's one thread. There is no second
// thread to block and no SharedArrayBuffer (the page is not cross-origin isolated), so a launch
// can't be waited on as in Node: the script runs under Pyodide's `callPromising` and each request
// to the GPU side is a promise the script waits on with `pyodide.ffi.run_sync`, which needs
// WebAssembly JSPI (JavaScript Promise Integration: Chrome and Edge 137 and later).

import { preparePython, type Pyodide } from "./embedded";
import type { Notice, Reply, Request } from "./protocol";
import type { PythonProcess } from "./session";

/** Pyodide's runtime files (dist/pyodide/), by name. */
export const PYODIDE_FILES = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"] as const;
export type PyodideFiles = Record<(typeof PYODIDE_FILES)[number], Uint8Array>;

/** Where Pyodide thinks its files are; this worker's fetch answers those requests from memory. */
const BASE = "https://pyodide.kernel-lab.invalid/";

interface WorkerGlobals {
  importScripts(url: string): void;
  fetch(input: unknown, init?: unknown): Promise<unknown>;
  Blob: new (parts: Uint8Array[], options: { type: string }) => unknown;
  URL: { createObjectURL(blob: unknown): string; revokeObjectURL(url: string): void };
  Response: new (body: Uint8Array, init: { headers: Record<string, string> }) => unknown;
  loadPyodide?: (options: Record<string, unknown>) => Promise<unknown>;
  WebAssembly?: { Suspending?: unknown };
}
const scope = globalThis as unknown as WorkerGlobals;

/** Why this browser can't run a Python file's kernels, or undefined when it can. */
export function whyNoJspi(): string | undefined {
  if (typeof scope.WebAssembly?.Suspending === "function") return undefined;
  return "this browser has no WebAssembly JSPI (JavaScript Promise Integration), which Kernel Lab's Python needs to wait for each kernel launch on the GPU. Chrome or Edge 137 or later have it (older ones: chrome://flags/#enable-experimental-webassembly-jspi); the desktop VS Code and `kernel-lab run FILE.py` run the file anywhere";
}

let loads = 0;

/** How many times this worker has loaded Pyodide (the web extension keeps one worker for Python, so 1). */
export function pyodideLoads(): number {
  return loads;
}

export function startWebPython(files: PyodideFiles, lib: Record<string, string>): PythonProcess {
  loads++;
  const listeners: ((notice: Notice) => void)[] = [];
  const exits: ((why: string) => void)[] = [];
  const post = (notice: Notice) => {
    for (const listener of listeners) listener(notice);
  };
  let waiting: { id: number; resolve: (json: string) => void } | undefined;
  let id = 0;
  const call = (request: Request) =>
    new Promise<string>((resolve) => {
      waiting = { id: ++id, resolve };
      post({ kind: "request", request, id });
    });
  const started = performance.now();
  const thread = load(files).then((pyodide) => {
    const prepared = preparePython(pyodide, lib, call, post, true);
    post({ kind: "ready", startMs: performance.now() - started });
    return prepared;
  });
  thread.catch((err: unknown) => {
    post({ kind: "done", error: { traceback: `Kernel Lab could not start Python: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, line: null, type: "StartError" } });
  });
  return {
    answer(reply: Reply, answered: number) {
      if (waiting?.id !== answered) return false;
      const { resolve } = waiting;
      waiting = undefined;
      resolve(JSON.stringify(reply));
      return true;
    },
    post: (command) => void thread.then((t) => t.run(command)),
    onNotice: (listener) => void listeners.push(listener),
    onExit: (listener) => void exits.push(listener),
    // The worker itself is terminated by the extension when the run has answered.
    stop: () => {},
  };
}

async function load(files: PyodideFiles): Promise<Pyodide> {
  const urls: string[] = [];
  const script = (bytes: Uint8Array) => {
    const url = scope.URL.createObjectURL(new scope.Blob([bytes], { type: "text/javascript" }));
    urls.push(url);
    scope.importScripts(url);
  };
  // pyodide.js defines loadPyodide; pyodide.asm.js defines _createPyodideModule, which loadPyodide
  // then uses instead of loading the script from its index URL.
  script(files["pyodide.js"]);
  script(files["pyodide.asm.js"]);
  const fetch = scope.fetch.bind(scope);
  scope.fetch = (input, init) => {
    const url = typeof input === "string" ? input : String((input as { url?: string }).url ?? input);
    const name = url.startsWith(BASE) ? (url.slice(BASE.length) as keyof PyodideFiles) : undefined;
    const bytes = name && files[name];
    if (bytes) return Promise.resolve(new scope.Response(bytes, { headers: { "Content-Type": name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream" } }));
    return fetch(input, init);
  };
  if (!scope.loadPyodide) throw new Error("pyodide.js did not define loadPyodide");
  try {
    return (await scope.loadPyodide({
      indexURL: BASE,
      stdLibURL: `${BASE}python_stdlib.zip`,
      lockFileContents: new TextDecoder().decode(files["pyodide-lock.json"]),
    })) as Pyodide;
  } finally {
    for (const url of urls) scope.URL.revokeObjectURL(url);
  }
}
