// The Python thread in Node: a worker thread started by thread-node.ts. Pyodide is loaded from
// the package's own copy (dist/pyodide/ next to the bundle, node_modules/pyodide/ from source),
// Kernel Lab's Python modules read from lib/ (dist/python-lib/ in the bundle), then every script
// the main thread sends is run in turn. Nothing is downloaded.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { loadPython } from "./snapshot-node";
import { createRequire } from "node:module";
import * as path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { blockingCall, preparePython } from "./embedded";
import { bytecodeCache } from "./bytecode-node";
import type { Notice, RunScript } from "./protocol";

const fromSource = __filename.endsWith(".ts");

function pyodideFolder(): string {
  return fromSource ? path.dirname(createRequire(__filename).resolve("pyodide/package.json")) : path.join(__dirname, "pyodide");
}

function libFiles(dir: string, under = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(path.join(dir, under))) {
    const rel = under ? `${under}/${name}` : name;
    const full = path.join(dir, rel);
    if (statSync(full).isDirectory()) Object.assign(files, libFiles(dir, rel));
    else if (name.endsWith(".py")) files[rel] = readFileSync(full, "utf8");
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
  const port = parentPort;
  if (!port) throw new Error("worker-node.ts runs as a worker thread");
  const post = (notice: Notice) => port.postMessage(notice);
  const started = performance.now();
  step("Python thread started");
  const { pyodide, startKind } = await loadPython(pyodideFolder() + path.sep);
  step(`Pyodide loaded (${startKind})`);
  const lib = fromSource ? path.join(__dirname, "lib") : path.join(__dirname, "python-lib");
  const files = libFiles(lib);
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
