// Starts the Python thread in Node (worker-node.ts) once per process; runs share it, each in a
// fresh `__main__`. From source (tests, tsx) the worker is the .ts file, run through tsx's hook;
// from the bundle, dist/python-worker.js.

import { createRequire } from "node:module";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { answer } from "./embedded";
import { REPLY_BYTES } from "./protocol";
import type { PythonProcess } from "./session";

export function startPythonThread(): PythonProcess {
  const fromSource = __filename.endsWith(".ts");
  const reply = new SharedArrayBuffer(8 + REPLY_BYTES);
  const worker = fromSource
    ? new Worker(path.join(__dirname, "worker-node.ts"), { workerData: { reply }, execArgv: ["--require", createRequire(__filename).resolve("tsx/cjs")] })
    : new Worker(path.join(__dirname, "python-worker.js"), { workerData: { reply } });
  // The thread keeps the process alive (a run waiting for Python must not end it): a process that
  // is done calls session.ts stopPython, or exits (the CLI does).
  return {
    answer: (value) => answer(reply, value),
    post: (command) => worker.postMessage(command),
    onNotice: (listener) => void worker.on("message", listener),
    onExit: (listener) => {
      worker.on("error", (err) => listener(err instanceof Error ? err.message : String(err)));
      worker.on("exit", (code) => listener(`the Python thread exited (${code})`));
    },
    stop: () => void worker.terminate(),
  };
}
