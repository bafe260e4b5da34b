// What the Python-path CLI tests share (test/cli/python-*.test.ts): the scripts' folder, a run on
// this process's Python thread (Pyodide starts once per test file), a scratch folder for variants.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
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

/** What a script's run reports (checks, launches, diagnostics, stdout, the traceback). */
export type ScriptReport = Awaited<ReturnType<typeof runPythonFile>>["report"];

export function run(file: string, opts: PythonRunOptions = {}) {
  return runPythonFile(file, opts, startPythonThread);
}

/**
 * Runs a script on the GPU and with --cpu (no bench timing), asserts each run ends "ok" (its
 * traceback otherwise), and hands each report to `check`: what every Python-path test of a script
 * on both sides does first.
 */
export async function onGpuAndCpu(file: string, check: (report: ScriptReport, cpu: boolean) => void | Promise<void>, opts: PythonRunOptions = {}): Promise<void> {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(file, { bench: "off", cpu, ...opts });
    assert.equal(outcome, "ok", `cpu=${cpu}: ${report.traceback}`);
    await check(report, cpu);
  }
}

/** `kernel-lab check FILE…` exits 0 with no diagnostic: what every library port's idioms file must give. Several files share one process. */
export function checksClean(...files: string[]): void {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "check", ...files], { cwd: root, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /KL\d{4}/);
}
