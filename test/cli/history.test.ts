// `run --history FILE` (results appended, each compared with its last run there) and
// `compare OLD.json NEW.json`, through the built binary.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };

before(ensureBuilt);

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("run --history: the first run says so, the second compares with it; the file holds both", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "kl-cli-history-"));
  const history = path.join(dir, "history.jsonl");
  const args = ["run", "examples/vector-add.kernel.ts", "--size", "5000", "--cpu", "--history", history];
  const first = cli(args);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, new RegExp(`^History \\(${history.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\):\\n  vectorAdd · size 5000: first run here$`, "m"));
  const second = cli([...args, "--json"]);
  assert.equal(second.code, 0, second.stderr);
  const report = JSON.parse(second.stdout);
  assert.equal(report.history.file, history);
  assert.equal(report.history.runs.length, 1);
  assert.match(report.history.runs[0].change, /^(\d+\.\d+× (faster|slower) than|as fast as) the last run \(\d\d:\d\d\)$/);
  assert.ok(report.history.runs[0].speedup > 0);
  const lines = readFileSync(history, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.run, l.size, l.device, l.correct]), [
    ["vectorAdd", 5000, "cpu-interpreter", true],
    ["vectorAdd", 5000, "cpu-interpreter", true],
  ]);
});

test("compare: runs and sizes found in both reports, old → new", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "kl-cli-compare-"));
  const run = (medianMs: number, correct: boolean, size = 100) => ({
    name: "vectorAdd", kernel: "add_kernel", size, constexprs: {}, grid: [1, 1, 1], correct, maxAbsDiff: 0, maxRelDiff: 0,
    mismatches: correct ? 0 : 3, firstMismatch: null, timing: { medianMs, minMs: medianMs, maxMs: medianMs, reps: 10, source: "timestamp-query" },
    gbps: null, gflops: null, baseline: null,
  });
  const file = (runs: unknown[]) => ({ file: "x.kernel.ts", adapter: null, diagnostics: [], runs });
  writeFileSync(path.join(dir, "old.json"), JSON.stringify(file([run(2, false), run(5, true, 200)])));
  writeFileSync(path.join(dir, "new.json"), JSON.stringify(file([run(1, true), run(1, true, 300)])));
  const r = cli(["compare", path.join(dir, "old.json"), path.join(dir, "new.json")]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "vectorAdd · size 100: 2.00 ms → 1.00 ms, 2.00× faster (now matches)\n");
  const j = cli(["compare", path.join(dir, "old.json"), path.join(dir, "new.json"), "--json"]);
  assert.deepEqual(JSON.parse(j.stdout).runs[0], { run: "vectorAdd", size: 100, beforeMs: 2, afterMs: 1, speedup: 2, beforeCorrect: false, afterCorrect: true });
  const bad = cli(["compare", path.join(dir, "old.json"), path.join(dir, "missing.json")]);
  assert.equal(bad.code, 4);
  assert.match(bad.stderr, /^kernel-lab: cannot read .*missing\.json: ENOENT$/m);
});
