// Starts the Python thread in Node (worker-node.ts) once per process; runs share it, each in a
// fresh `__main__`. From source (tests, tsx) the worker is the .ts file, run through tsx's hook;
// from the bundle, dist/python-worker.js. The CLI starts it first thing for a `.py` run
// (prestartPythonThread, src/cli/prestart-python.ts), so Pyodide boots while the main thread is
// still loading the compiler; what the thread says before anyone listens is kept for the listener.

import { createRequire } from "node:module";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { answer } from "./embedded";
import { REPLY_BYTES, REPLY_HEADER_BYTES, type Notice } from "./protocol";
import type { PythonProcess } from "./session";

let early: { thread: PythonProcess; worker: Worker } | undefined;

/**
 * Starts the Python thread now; the next startPythonThread() in this process gets it. Until then it
 * doesn't keep the process alive (a command that ends before it runs Python, a usage error, just exits).
 */
export function prestartPythonThread(): void {
  if (early) return;
  early = create();
  early.worker.unref();
}

export function startPythonThread(): PythonProcess {
  if (!early) return create().thread;
  const { thread, worker } = early;
  early = undefined;
  worker.ref();
  return thread;
}

function create(): { thread: PythonProcess; worker: Worker } {
  const fromSource = __filename.endsWith(".ts");
  const reply = new SharedArrayBuffer(REPLY_HEADER_BYTES + REPLY_BYTES);
  const worker = fromSource
    ? new Worker(path.join(__dirname, "worker-node.ts"), { workerData: { reply, origin: performance.timeOrigin }, execArgv: ["--require", createRequire(__filename).resolve("tsx/cjs")] })
    : new Worker(path.join(__dirname, "python-worker.js"), { workerData: { reply, origin: performance.timeOrigin } });
  const pending: Notice[] = [];
  let listener: ((notice: Notice) => void) | undefined;
  worker.on("message", (notice: Notice) => (listener ? listener(notice) : pending.push(notice)));
  let exited: string | undefined;
  const exitListeners: ((why: string) => void)[] = [];
  const exit = (why: string) => {
    exited ??= why;
    for (const l of exitListeners) l(why);
  };
  worker.on("error", (err) => exit(err instanceof Error ? err.message : String(err)));
  worker.on("exit", (code) => exit(`the Python thread exited (${code})`));
  // The thread keeps the process alive (a run waiting for Python must not end it): a process that
  // is done calls session.ts stopPython, or exits (the CLI does).
  const thread: PythonProcess = {
    answer: (value, id) => answer(reply, value, id),
    post: (command) => worker.postMessage(command),
    onNotice: (l) => {
      listener = l;
      for (const notice of pending.splice(0)) l(notice);
    },
    onExit: (l) => {
      exitListeners.push(l);
      if (exited !== undefined) l(exited);
    },
    stop: () => void worker.terminate(),
  };
  return { thread, worker };
}
