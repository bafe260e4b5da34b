// What the Python-path CLI tests share (test/cli/python-*.test.ts): the scripts' folder, a run on
// this process's Python thread (Pyodide starts once per test file), a scratch folder for variants.

import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runPythonFile, type PythonRunOptions } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";
import { root } from "./build";

export const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
export const PY = path.join(root, "test/python");

let made: string | undefined;
/** A scratch folder for this test file's variants of the scripts. */
export function scratch(): string {
  made ??= mkdtempSync(path.join(os.tmpdir(), "kernel-lab-py-"));
  return made;
}

export function run(file: string, opts: PythonRunOptions = {}) {
  return runPythonFile(file, opts, startPythonThread);
}
