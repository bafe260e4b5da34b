// The Python thread's side (a Node worker thread, or a Web Worker): Pyodide started once, Kernel
// Lab's `torch` and `triton` modules written into its file system, then each script run in a
// fresh `__main__`. Every call to the GPU goes through the bridge's `call`: in Node it blocks this
// thread until the main thread answers (protocol.ts); in the browser's worker, one thread, it gives
// a promise the script waits on through JSPI (web-python.ts). No Node API here.

import type { Notice, Reply, Request, RunScript } from "./protocol";
import { REPLY_BYTES, REPLY_HEADER_BYTES, STATE_WAITING } from "./protocol";
import { tensorOps } from "./tensor-ops";

/** The part of Pyodide's API used here (pyodide.d.ts's PyodideAPI, narrowed). */
export interface Pyodide {
  FS: {
    mkdirTree(path: string): void;
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
    utime(path: string, atime: number, mtime: number): void;
    analyzePath(path: string): { exists: boolean };
  };
  registerJsModule(name: string, module: object): void;
  runPython(code: string, options?: { globals?: unknown; filename?: string }): unknown;
  globals: { get(name: string): unknown };
  setStdout(options: { write: (bytes: Uint8Array) => number }): void;
  setStderr(options: { write: (bytes: Uint8Array) => number }): void;
}

/** Where Kernel Lab's Python modules are put, first on sys.path. */
export const LIB_DIR = "/kernel_lab/lib";

export interface PythonThread {
  /** Runs one script to its end; posts `done`. */
  run(command: RunScript): void;
  /** Kernel Lab's modules compiled so far (lib path of the `.pyc` → its bytes), for the next process (bytecode-node.ts). */
  bytecode(): Record<string, Uint8Array>;
}

/**
 * The modification time Kernel Lab's modules get in Pyodide's file system. Python's cached
 * bytecode (`__pycache__/*.pyc`) is valid while its source's time and size are unchanged, so with
 * a fixed time the bytecode one process wrote serves the next: compiling the modules is most of
 * importing them (~0.5 s of CPU). The cache is keyed by the modules' contents (bytecode-node.ts),
 * so a changed module is never run from old bytecode.
 */
const LIB_MTIME_MS = Date.UTC(2000, 0, 1);

/**
 * How the Python thread's requests reach the main thread and come back: a string at once where the
 * thread can block (Node: `blockingCall`), a promise the script waits on through WebAssembly JSPI
 * (`pyodide.ffi.run_sync`) where it can't (the browser's worker, one thread: `web-python.ts`).
 */
export type BridgeCall = (request: Request) => string | Promise<string>;

/**
 * Prepares a started Pyodide: the modules (`files`: paths under lib/ → text), the bridge to the
 * main thread (`call`), stdout and stderr streamed as written. `promising`: each script runs with
 * stack switching (Pyodide's callPromising), so a request may answer with a promise.
 */
export function preparePython(
  pyodide: Pyodide,
  files: Record<string, string>,
  call: BridgeCall,
  post: (notice: Notice) => void,
  promising = false,
  /** The modules' bytecode from an earlier process (lib path of the `.pyc` → bytes); with it, Python also writes what it compiles. */
  bytecode?: Record<string, Uint8Array>,
): PythonThread {
  const folder = (full: string) => full.slice(0, full.lastIndexOf("/"));
  for (const [file, text] of Object.entries(files)) {
    const full = `${LIB_DIR}/${file}`;
    pyodide.FS.mkdirTree(folder(full));
    pyodide.FS.writeFile(full, text);
    pyodide.FS.utime(full, LIB_MTIME_MS, LIB_MTIME_MS);
  }
  for (const [file, bytes] of Object.entries(bytecode ?? {})) {
    const full = `${LIB_DIR}/${file}`;
    pyodide.FS.mkdirTree(folder(full));
    pyodide.FS.writeFile(full, bytes);
  }
  const decoder = new TextDecoder();
  const stream = (kind: "stdout" | "stderr") => ({
    write: (bytes: Uint8Array) => {
      post({ kind, text: decoder.decode(bytes, { stream: true }) });
      return bytes.length;
    },
  });
  pyodide.setStdout(stream("stdout"));
  pyodide.setStderr(stream("stderr"));
  const bridge = {
    /** A request answered by the main thread; the reply as JSON text (Python parses it), or its promise. */
    call,
    notify(notice: Notice): void {
      post(notice);
    },
    now: () => performance.now(),
  };
  pyodide.registerJsModule("_kernel_lab_bridge", bridge);
  pyodide.registerJsModule("_kernel_lab_ops", tensorOps);
  // With a bytecode cache, Python writes what it compiles (modules imported later too: torch._on_gpu).
  const writeBytecode = bytecode ? "sys.dont_write_bytecode = False\n" : "";
  pyodide.runPython(`import sys\n${writeBytecode}sys.path.insert(0, ${JSON.stringify(LIB_DIR)})\nimport _kernel_lab_runner`);
  const tag = String(pyodide.runPython("sys.implementation.cache_tag"));
  type RunScriptFn = ((file: string, name: string, text: string, bench: string, cpu: boolean, environ: string) => string | undefined) & {
    callPromising(file: string, name: string, text: string, bench: string, cpu: boolean, environ: string): Promise<string | undefined>;
  };
  const runner = pyodide.globals.get("_kernel_lab_runner") as { run_script: RunScriptFn };
  const done = (failure: string | undefined) =>
    post(failure ? { kind: "done", error: JSON.parse(failure) as NonNullable<Extract<Notice, { kind: "done" }>["error"]> } : { kind: "done" });
  return {
    bytecode() {
      const compiled: Record<string, Uint8Array> = {};
      for (const file of Object.keys(files)) {
        const slash = file.lastIndexOf("/") + 1;
        const pyc = `${file.slice(0, slash)}__pycache__/${file.slice(slash, -".py".length)}.${tag}.pyc`;
        if (pyodide.FS.analyzePath(`${LIB_DIR}/${pyc}`).exists) compiled[pyc] = pyodide.FS.readFile(`${LIB_DIR}/${pyc}`);
      }
      return compiled;
    },
    run(command) {
      const args = [command.file, command.displayName, command.text, command.bench, command.cpu, JSON.stringify(command.environ)] as const;
      if (!promising) return done(runner.run_script(...args));
      void runner.run_script.callPromising(...args).then(done, (err: unknown) =>
        done(JSON.stringify({ traceback: `Kernel Lab's Python stopped: ${err instanceof Error ? err.message : String(err)}\n`, line: null, type: "PythonThreadExit" })),
      );
    },
  };
}

/** The Node thread's bridge: posts the request, then sleeps on the shared block until the main thread has answered (`answer`). */
export function blockingCall(reply: SharedArrayBuffer, post: (notice: Notice) => void): BridgeCall {
  const state = new Int32Array(reply, 0, 3);
  const bytes = new Uint8Array(reply, REPLY_HEADER_BYTES, REPLY_BYTES);
  const decoder = new TextDecoder();
  let id = 0;
  return (request) => {
    id++;
    Atomics.store(state, 2, id);
    Atomics.store(state, 0, STATE_WAITING);
    post({ kind: "request", request, id });
    Atomics.wait(state, 0, STATE_WAITING);
    // TextDecoder refuses views of shared memory: copy the bytes out first.
    return decoder.decode(bytes.slice(0, state[1]));
  };
}

/**
 * Answers request `id` on the main thread's side: the reply's JSON into the shared block, then wakes
 * the Python thread. False, and nothing written, when the thread no longer waits on that request.
 */
export function answer(reply: SharedArrayBuffer, value: Reply, id: number): boolean {
  const state = new Int32Array(reply, 0, 3);
  if (Atomics.load(state, 0) !== STATE_WAITING || Atomics.load(state, 2) !== id) return false;
  let encoded = new TextEncoder().encode(JSON.stringify(value));
  if (encoded.length > REPLY_BYTES) {
    encoded = new TextEncoder().encode(JSON.stringify({ kind: "error", error: "runtime", message: `Kernel Lab's reply was too long (${encoded.length} bytes)` } satisfies Reply));
  }
  new Uint8Array(reply, REPLY_HEADER_BYTES, REPLY_BYTES).set(encoded);
  state[1] = encoded.length;
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  return true;
}
