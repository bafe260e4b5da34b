// Imported first by the CLI (main.ts): `kernel-lab run FILE.py` starts its Python thread before
// the rest of the CLI loads (TypeScript alone is hundreds of milliseconds), so Pyodide's start
// overlaps it instead of following it.

import { prestartPythonThread } from "../harness/python/thread-node";

const [command, file] = process.argv.slice(2);
if (command === "run" && typeof file === "string" && file.endsWith(".py") && !process.argv.includes("--help")) prestartPythonThread();
