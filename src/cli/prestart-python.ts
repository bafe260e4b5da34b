// Imported first by the CLI (main.ts): `kernel-lab run FILE.py` starts its Python thread before
// the rest of the CLI loads (TypeScript alone is hundreds of milliseconds), so Pyodide's start
// overlaps it instead of following it.

import { prestartPythonThread } from "../harness/python/thread-node";

const [command, file] = process.argv.slice(2);
if (command === "run" && typeof file === "string" && file.endsWith(".py") && !process.argv.includes("--help")) {
  // A worker thread's environment is a copy taken when it starts, and main.ts sets KERNEL_LAB_DEBUG only
  // after parsing the arguments: too late for this thread, whose `--debug` step lines (worker-node.ts)
  // then never printed. Set here first, as main.ts would.
  if (process.argv.includes("--debug")) process.env.KERNEL_LAB_DEBUG = "1";
  prestartPythonThread();
}
