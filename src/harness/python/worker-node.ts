// The Python thread in Node: a worker thread started by thread-node.ts. Pyodide is loaded from
// the package's own copy (dist/pyodide/ next to the bundle, node_modules/pyodide/ from source),
// Kernel Lab's Python modules read from lib/ (dist/python-lib/ in the bundle), then every script
// the main thread sends is run in turn. Nothing is downloaded.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { loadPython } from "./snapshot-node";
import { createRequire } from "node:module";
import * as path from "node:path";
import { setFlagsFromString } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { blockingCall, preparePython } from "./embedded";
import { bytecodeCache } from "./bytecode-node";
import { pythonLibFolder } from "./lib-folder-node";
import type { Notice, RunScript } from "./protocol";

const fromSource = __filename.endsWith(".ts");

/**
 * V8 compiles a wasm function again with its optimising compiler once it has run enough (a budget
 * of roughly bytes executed; 1.8 M by default), on its background threads. With the default,
 * restoring Pyodide and importing torch and triton tier up many lukewarm functions: about 0.3 s of
 * CPU in every process, more than the Python thread's own work saved (bench/NOTES.md §27). Ten times
 * the budget leaves those on the baseline code, while the interpreter's loop and whatever a long
 * script keeps hot still tier up: a pure-Python loop of 3 M iterations ran no slower. The flag is
 * the process's, set before Pyodide's module is compiled; Pyodide is the process's only WebAssembly.
 */
const WASM_TIERING_BUDGET = 18_000_000;

function pyodideFolder(): string {
  return fromSource ? path.dirname(createRequire(__filename).resolve("pyodide/package.json")) : path.join(__dirname, "pyodide");
}

function libFiles(dir: string, under = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(path.join(dir, under))) {
    const rel = under ? `${under}/${name}` : name;
    const full = path.join(dir, rel);
    if (statSync(full).isDirectory()) Object.assign(files, libFiles(dir, rel));
    // A *.dist-info/METADATA names torch's and triton's versions for importlib.metadata.version(…).
    else if (name.endsWith(".py") || under.endsWith(".dist-info")) files[rel] = readFileSync(full, "utf8");
  }
  return files;
}

/** `--debug`'s step lines (harness/trace.ts), on the main thread's clock (its time origin comes in workerData). */
function step(what: string): void {
  if (!process.env.KERNEL_LAB_DEBUG) return;
  const origin = (workerData as { origin?: number }).origin ?? performance.timeOrigin;
  process.stderr.write(`kernel-lab: ${(performance.timeOrigin + performance.now() - origin).toFixed(1)} ms: ${what} (Python thread)\n`);
}

async function start(): Promise<void> {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  const port = parentPort;
  if (!port) throw new Error("worker-node.ts runs as a worker thread");
  const post = (notice: Notice) => port.postMessage(notice);
  const started = performance.now();
  step("Python thread started");
  const { pyodide, startKind } = await loadPython(pyodideFolder() + path.sep);
  step(`Pyodide loaded (${startKind})`);
  const files = libFiles(pythonLibFolder());
  const bytecode = bytecodeCache(files);
  const thread = preparePython(pyodide, files, blockingCall((workerData as { reply: SharedArrayBuffer }).reply, post), post, false, bytecode?.cached);
  step(`torch and triton imported (${Object.keys(bytecode?.cached ?? {}).length} modules' bytecode cached)`);
  post({ kind: "ready", startMs: performance.now() - started, startKind });
  bytecode?.save(thread.bytecode());
  port.on("message", (command: RunScript) => {
    thread.run(command);
    // A module the script made Python import (torch._on_gpu) is compiled once too.
    bytecode?.save(thread.bytecode());
  });
}

void start().catch((err: unknown) => {
  parentPort?.postMessage({ kind: "done", error: { traceback: `Kernel Lab could not start Python: ${err instanceof Error ? err.stack ?? err.message : String(err)}`, line: null, type: "StartError" } } satisfies Notice);
});
