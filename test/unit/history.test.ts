// The timing history: entries appended per run, read back, and the change since an earlier run.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { appendHistory, readHistory } from "../../src/cli/history";
import { changeSince, compareReports, describeChange, earlierResults } from "../../src/harness/timing/history";
import type { FileReport, RunReport } from "../../src/harness/report";

function run(name: string, size: number, medianMs: number | null, correct = true): RunReport {
  return {
    name, kernel: "k", size, constexprs: { BLOCK: 128 }, grid: [1, 1, 1], correct, maxAbsDiff: 0, maxRelDiff: 0,
    mismatches: correct ? 0 : 1, firstMismatch: null,
    timing: medianMs === null ? null : { medianMs, minMs: medianMs, maxMs: medianMs, reps: 10, source: "timestamp-query" },
    gbps: null, gflops: null, baseline: null,
  };
}

function report(runs: RunReport[], device = "gpu-a"): FileReport {
  return { file: "examples/k.kernel.ts", adapter: { vendor: "v", device, backend: "vulkan", description: "" }, diagnostics: [], runs };
}

test("appended results read back in order; a damaged line is skipped", () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "kl-history-")), "sub", "history.jsonl");
  assert.deepEqual(readHistory(file), []);
  appendHistory(file, report([run("add", 100, 2.0), run("add", 200, 4.0)]), new Date("2026-12-03T14:02:00Z"));
  appendFileSync(file, '{"run": "add", "size": 1\n');
  appendHistory(file, report([run("add", 100, 1.0)]), new Date("2026-12-03T14:10:00Z"));
  const entries = readHistory(file);
  assert.deepEqual(entries.map((e) => [e.run, e.size, e.medianMs]), [["add", 100, 2], ["add", 200, 4], ["add", 100, 1]]);
  const last = entries[2];
  const earlier = earlierResults(entries, last);
  assert.equal(earlier.length, 1);
  const change = changeSince(earlier, last);
  assert.ok(change);
  assert.equal(change.speedup, 2);
  assert.equal(change.runsAgo, 1);
  assert.equal(describeChange(change, "UTC"), "2.00× faster than the last run (14:02)");
});

test("results on another device or of another size are not compared", () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "kl-history-")), "h.jsonl");
  appendHistory(file, report([run("add", 100, 2.0)], "gpu-a"), new Date("2026-12-03T10:00:00Z"));
  appendHistory(file, report([run("add", 100, 9.0)], "gpu-b"), new Date("2026-12-03T11:00:00Z"));
  appendHistory(file, report([run("add", 300, 9.0)], "gpu-a"), new Date("2026-12-03T11:30:00Z"));
  appendHistory(file, report([run("add", 100, 2.5)], "gpu-a"), new Date("2026-12-03T12:00:00Z"));
  const entries = readHistory(file);
  const earlier = earlierResults(entries, entries[3]);
  assert.deepEqual(earlier.map((e) => e.medianMs), [2]);
  assert.equal(describeChange(changeSince(earlier, entries[3])!, "UTC"), "1.25× slower than the last run (10:00)");
});

test("an untimed earlier run is skipped; a fixed kernel says so", () => {
  const at = (m: number) => new Date(Date.UTC(2026, 11, 3, 9, m)).toISOString();
  const base = { file: "f", device: "d", run: "r", size: 1, constexprs: {}, maxAbsDiff: 0, gbps: null, gflops: null };
  const earlier = [
    { ...base, at: at(0), correct: false, medianMs: 3 },
    { ...base, at: at(1), correct: false, medianMs: null },
  ];
  const now = { ...base, at: at(2), correct: true, medianMs: 3 };
  const change = changeSince(earlier, now)!;
  assert.equal(change.runsAgo, 2);
  assert.equal(describeChange(change, "UTC"), "as fast as 2 runs ago (09:00); now matches its reference");
});

test("two reports compare by run and size", () => {
  const rows = compareReports(report([run("add", 100, 2.0), run("mul", 100, 1.0)]), report([run("add", 100, 0.5), run("add", 200, 1.0)]));
  assert.deepEqual(rows.map((r) => [r.run, r.size, r.speedup]), [["add", 100, 4]]);
});
