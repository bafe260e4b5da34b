// Hung and crashing kernels, outside the editor: an endless loop is stopped at the timeout on the
// command line and in the worker; the editor's KernelRunner (plain Node, vscode is only a type
// there) reports a worker killed with SIGKILL mid-run, a timeout and a cancellation — each leaves
// no process behind — and the next run works. docs/RELIABILITY.md lists these rows.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";
import { KernelRunner, type RunOutcome } from "../../src/editor/kernel-runner";
import type { Progress } from "../../src/harness/workers/protocol";

process.env.XDG_RUNTIME_DIR ??= "/tmp";
const ENDLESS = path.join(root, "test/fixtures/endless-loop.kernel.ts");
const SAXPY = path.join(root, "examples/saxpy.kernel.ts");

before(ensureBuilt);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A KernelRunner with a log that remembers the worker's pid, and a cancellation token we control. */
function runner() {
  const lines: string[] = [];
  const logged = (...parts: unknown[]) => void lines.push(parts.map(String).join(" "));
  const log = { info: logged, warn: logged, error: logged, debug: logged, trace: logged } as never;
  const kernelRunner = new KernelRunner(path.join(root, "dist/worker.js"), log);
  const pids = () => lines.map((l) => /^worker (\d+) started/.exec(l)?.[1]).filter((p): p is string => !!p).map(Number);
  return { kernelRunner, lines, pids };
}

function token() {
  const listeners: (() => void)[] = [];
  return {
    token: { isCancellationRequested: false, onCancellationRequested: (fn: () => void) => (listeners.push(fn), { dispose() {} }) } as never,
    cancel: () => listeners.forEach((fn) => fn()),
  };
}

async function waitUntil(what: string, probe: () => boolean, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("kernel-lab run --timeout stops an endless loop on the GPU: KL3900, exit 4, in about the timeout", () => {
  const started = Date.now();
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", ENDLESS, "--timeout", "2", "--json"], { cwd: root, env: process.env, encoding: "utf8", timeout: 60_000 });
  const seconds = (Date.now() - started) / 1000;
  assert.equal(r.status, 4, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.diagnostics[0].code, "KL3900");
  assert.match(report.diagnostics[0].message, /^Run 'endless' \(size 256\) did not finish within 2 s/);
  assert.ok(seconds < 20, `took ${seconds} s`);
});

test("kernel-lab run --cpu stops an endless loop at the interpreter's step limit (KL3102, at the loop)", () => {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", ENDLESS, "--cpu", "--json", "--max-steps", "5000000"], { cwd: root, env: process.env, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 4, r.stderr);
  const [d] = JSON.parse(r.stdout).diagnostics;
  assert.equal(d.code, "KL3102");
  assert.match(d.message, /did not finish after 5000000 steps \(endless loop\?\)/);
  assert.equal(d.line, 10); // the for statement
});

test("the worker reports its own timeout as a result, then exits", async () => {
  const { kernelRunner, pids } = runner();
  const outcome = await kernelRunner.run({ type: "run", file: ENDLESS }, { cwd: root, timeoutSeconds: 2, onProgress: () => {}, token: token().token });
  assert.equal(outcome.kind, "completed", JSON.stringify(outcome));
  if (outcome.kind !== "completed") return;
  assert.equal(outcome.report.diagnostics[0].code, "KL3900");
  await waitUntil("the worker to exit", () => !alive(pids()[0]), 10_000);
});

test("a worker killed with SIGKILL mid-run is reported as crashed; no process is left; the next run works", async () => {
  const { kernelRunner, pids } = runner();
  const phases: Progress["phase"][] = [];
  const pending = kernelRunner.run({ type: "run", file: ENDLESS }, { cwd: root, timeoutSeconds: 120, onProgress: (p) => phases.push(p.phase), token: token().token });
  await waitUntil("the kernel to launch", () => phases.includes("launch"));
  const [pid] = pids();
  process.kill(pid, "SIGKILL");
  const outcome: RunOutcome = await pending;
  assert.deepEqual({ kind: outcome.kind, signal: (outcome as { signal?: string }).signal }, { kind: "crashed", signal: "SIGKILL" });
  assert.equal(alive(pid), false);

  const next = await kernelRunner.run({ type: "run", file: SAXPY, size: 1000, reps: 3 }, { cwd: root, timeoutSeconds: 120, onProgress: () => {}, token: token().token });
  assert.equal(next.kind, "completed", JSON.stringify(next).slice(0, 500));
  if (next.kind === "completed") assert.equal(next.outcome, "ok");
});

test("the editor's timeout kills a worker that no longer answers; no process is left", async () => {
  const { kernelRunner, pids } = runner();
  // The worker's own limit is the editor's (timeoutMs in the request); SIGSTOP keeps it from
  // reporting, as a driver hang in native code would.
  const phases: string[] = [];
  const pending = kernelRunner.run({ type: "run", file: ENDLESS }, { cwd: root, timeoutSeconds: 3, onProgress: (p) => phases.push(p.phase), token: token().token });
  await waitUntil("the kernel to launch", () => phases.includes("launch"));
  const [pid] = pids();
  process.kill(pid, "SIGSTOP");
  const outcome = await pending;
  assert.deepEqual(outcome, { kind: "timed-out", seconds: 3 });
  await waitUntil("the stopped worker to be gone", () => !alive(pid), 5_000);
});

test("a cancelled run kills its worker: no process is left", async () => {
  const { kernelRunner, pids } = runner();
  const { token: t, cancel } = token();
  const phases: string[] = [];
  const pending = kernelRunner.run({ type: "run", file: ENDLESS }, { cwd: root, timeoutSeconds: 120, onProgress: (p) => phases.push(p.phase), token: t });
  await waitUntil("the kernel to launch", () => phases.includes("launch"));
  const [pid] = pids();
  cancel();
  assert.deepEqual(await pending, { kind: "cancelled" });
  await waitUntil("the cancelled worker to be gone", () => !alive(pid), 5_000);
});

test("kernel-lab run never modifies the kernel file: a good run, a compile error, a bad run, a timed-out run", () => {
  const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");
  for (const [file, args, exit] of [
    [SAXPY, ["--cpu", "--size", "1000"], 0],
    [path.join(root, "test/fixtures/unsupported.kernel.ts"), [], 2],
    [path.join(root, "test/fixtures/bad-runs.kernel.ts"), ["--run", "missingArg"], 4],
    [ENDLESS, ["--timeout", "1"], 4],
  ] as const) {
    const before = sha(file);
    const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", file, ...args], { cwd: root, env: process.env, encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, exit, `${file}: ${r.stderr}`);
    assert.equal(sha(file), before, `${file} changed`);
  }
});
