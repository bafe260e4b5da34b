// The random-number and erf/tanh examples end to end: Triton tutorial 04's low-memory dropout
// (tl.rand; its reference recomputes Philox independently in plain TS) and GELU (tl.erf, tl.tanh),
// through the built binary at one size, and every size (--sweep) run in this process
// (test/support/run-in-process.ts), on the GPU (lavapipe on CI) and with --cpu.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";
import { runJson } from "../support/run-in-process";

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
  test(`examples/${example}.kernel.ts --sweep: every run and size matches on the GPU and with --cpu`, async () => {
    for (const backend of [[], ["--cpu"]]) {
      // `kernel-lab run FILE --sweep --reps 0 --json [--cpu]`, in this process (test/support/run-in-process.ts).
      const { code, report } = await runJson(`examples/${example}.kernel.ts`, { sweep: true, reps: 0, cpu: backend.length > 0 });
      assert.deepEqual(report.diagnostics, []);
      assert.equal(code, 0);
      assert.ok(report.runs.length >= 3);
      for (const run of report.runs) assert.equal(run.correct, true, `${example} ${backend} ${run.name} size ${run.size}: ${JSON.stringify(run.firstMismatch)}`);
    }
  });
}
