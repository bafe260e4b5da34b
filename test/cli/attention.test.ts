// examples/attention.kernel.ts (Triton tutorial 06, forward, f32) through the built binary: every
// run (non-causal and causal, head dims 64 and 128) at its first size, on the GPU (lavapipe on CI)
// and with --cpu, against its float64 reference; plus size 33 (one partial block) on the CPU.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
const FILE = "examples/attention.kernel.ts";
const RUNS = ["attention64", "attentionCausal64", "attention128", "attentionCausal128"];

before(ensureBuilt);

function run(args: string[]): { code: number | null; report: any } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", FILE, ...args, "--json"], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 600_000,
  });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  let report: any;
  assert.doesNotThrow(() => (report = JSON.parse(r.stdout)), `stdout is one JSON object:\n${r.stdout}\n${r.stderr}`);
  return { code: r.status, report };
}

function assertCorrect(report: any, sizes: number[], names: string[] = RUNS): void {
  assert.deepEqual(report.diagnostics, []);
  assert.deepEqual(report.runs.map((r: any) => r.name).sort(), [...names].sort());
  for (const r of report.runs) {
    assert.equal(r.correct, true, `${r.name} size ${r.size}: ${JSON.stringify(r.firstMismatch)} (max diff ${r.maxAbsDiff})`);
    assert.ok(sizes.includes(r.size), `${r.name}: size ${r.size}`);
    assert.equal(r.mismatches, 0);
    if (report.adapter.backend !== "cpu") assert.ok(r.gflops > 0, `${r.name}: flops declared`);
  }
}

// On lavapipe the shader compile, not the launch, is what costs: 10-15 s cold for each of the
// four specialisations on a loaded 2-core machine (Mesa's shader cache makes it ~2 s warm).
test("attention: every run matches its float64 reference on the GPU at its first size", () => {
  const { code, report } = run(["--reps", "2"]);
  assert.equal(code, 0, JSON.stringify(report.diagnostics));
  assertCorrect(report, [200]);
  // One program per (query block, batch × head): 200 rows in blocks of 32 or 16, 1 × 2 heads.
  const grids = Object.fromEntries(report.runs.map((r: any) => [r.name, r.grid]));
  assert.deepEqual(grids, { attention64: [7, 2, 1], attentionCausal64: [7, 2, 1], attention128: [13, 2, 1], attentionCausal128: [13, 2, 1] });
});

test("attention: every run matches on the CPU interpreter, at 200 and at 33 (one partial block)", () => {
  for (const size of [200, 33]) {
    const { code, report } = run(["--cpu", "--reps", "1", "--size", String(size)]);
    assert.equal(code, 0, JSON.stringify(report.diagnostics));
    assert.equal(report.adapter.backend, "cpu");
    assertCorrect(report, [size]);
  }
});
