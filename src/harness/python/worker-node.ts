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

async function start(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error("worker-node.ts runs as a worker thread");
  const post = (notice: Notice) => port.postMessage(notice);
  const started = performance.now();
  const { pyodide, startKind } = await loadPython(pyodideFolder() + path.sep);
  const lib = fromSource ? path.join(__dirname, "lib") : path.join(__dirname, "python-lib");
  const thread = preparePython(pyodide, libFiles(lib), blockingCall((workerData as { reply: SharedArrayBuffer }).reply, post), post);
  post({ kind: "ready", startMs: performance.now() - started, startKind });
  port.on("message", (command: RunScript) => thread.run(command));
}

void start().catch((err: unknown) => {
  parentPort?.postMessage({ kind: "done", error: { traceback: `Kernel Lab could not start Python: ${err instanceof Error ? err.stack ?? err.message : String(err)}`, line: null, type: "StartError" } } satisfies Notice);
});
