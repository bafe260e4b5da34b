// The random-number and erf/tanh examples end to end through the built binary: Triton tutorial
// 04's low-memory dropout (tl.rand; its reference recomputes Philox independently in plain TS) and
// GELU (tl.erf, tl.tanh), every size (--sweep) on the GPU (lavapipe on CI) and with --cpu.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };

before(ensureBuilt);

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("examples/dropout.kernel.ts: Match: true with Max difference 0 on the GPU and with --cpu", () => {
  for (const backend of [[], ["--cpu"]]) {
    const r = run(["run", "examples/dropout.kernel.ts", ...backend]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^dropout \(kernel seeded_dropout\) · size 98437 · grid \[97, 1, 1\] · BLOCK_SIZE=1024$/m);
    assert.match(r.stdout, /^  Max difference: 0$/m, `${backend}: the mask is Philox's, bit for bit`);
    assert.match(r.stdout, /^  Match: true$/m);
  }
});

for (const example of ["dropout", "gelu"]) {
  test(`examples/${example}.kernel.ts --sweep: every run and size matches on the GPU and with --cpu`, () => {
    for (const backend of [[], ["--cpu"]]) {
      const r = run(["run", `examples/${example}.kernel.ts`, "--sweep", "--reps", "0", "--json", ...backend]);
      const report = JSON.parse(r.stdout);
      assert.deepEqual(report.diagnostics, [], r.stderr);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(report.runs.length >= 3);
      for (const run of report.runs) assert.equal(run.correct, true, `${example} ${backend} ${run.name} size ${run.size}: ${JSON.stringify(run.firstMismatch)}`);
    }
  });
}
