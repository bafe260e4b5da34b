// The editor's worker (dist/worker.js): one request over IPC, progress, one result, exit.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { fork } from "node:child_process";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";
import type { WorkerMessage, WorkerRequest } from "../../src/harness/workers/protocol";


before(ensureBuilt);

function ask(request: WorkerRequest): Promise<{ messages: WorkerMessage[]; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(root, "dist/worker.js"), [], {
      cwd: root,
      env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" },
      stdio: ["ignore", "ignore", "ignore", "ipc"],
    });
    const messages: WorkerMessage[] = [];
    child.on("message", (m: WorkerMessage) => messages.push(m));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ messages, code }));
    child.send(request);
  });
}

test("the worker runs a file and replies with progress, then the report", async () => {
  const { messages, code } = await ask({ type: "run", file: path.join(root, "examples/saxpy.kernel.ts"), cpu: true, size: 1000 });
  assert.equal(code, 0);
  assert.ok(messages.some((m) => m.type === "progress"));
  const last = messages.at(-1);
  assert.equal(last?.type, "result");
  if (last?.type !== "result") return;
  assert.equal(last.outcome, "ok");
  assert.equal(last.exitCode, 0);
  assert.equal(last.report.runs[0].size, 1000);
  assert.equal(last.report.runs[0].correct, true);
});

test("a mismatch comes back as a result with outcome mismatch", async () => {
  const { messages } = await ask({ type: "run", file: path.join(root, "test/fixtures/mismatch.kernel.ts"), cpu: true });
  const last = messages.at(-1);
  assert.equal(last?.type, "result");
  if (last?.type === "result") assert.equal(last.exitCode, 1);
});
