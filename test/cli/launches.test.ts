// Runs with several launches (README "Runs with several launches"), through the built command
// line: the JSON shape (docs/LANGUAGE.md §4's keys, then `launches`), the human lines per launch, the layer
// norm backward example matching on the GPU (lavapipe on CI) and with --cpu, and every way a
// `launches` definition can be wrong, located at the run with its KL3xxx code. The human lines are
// the spawned command's; the reports are read in this process (runJson, test/support/run-in-process.ts),
// which spares a process and a GPU device per run.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";
import { runJson } from "../support/run-in-process";

const EXAMPLE = "examples/layer-norm-backward.kernel.ts";
const FIXTURE = "test/fixtures/bad-launches.kernel.ts";
const FIXTURE_LINES = readFileSync(path.join(root, FIXTURE), "utf8").split("\n");
const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };

before(ensureBuilt);

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const RUN_KEYS = [
  "name", "kernel", "size", "constexprs", "grid", "correct", "maxAbsDiff", "maxRelDiff", "mismatches", "firstMismatch",
  "timing", "gbps", "gflops", "baseline", "launches",
];

for (const cpu of [false, true]) {
  const flags = cpu ? ["--cpu"] : ["--reps", "5"];
  const backend = cpu ? "--cpu" : "GPU";

  test(`${backend}: layer norm backward matches; the entry is docs/LANGUAGE.md §4's keys then one per launch`, async () => {
    const { code, report } = await runJson(EXAMPLE, { run: "layerNormBackward", ...(cpu ? { cpu } : { reps: 5 }) });
    assert.equal(code, 0, JSON.stringify(report.diagnostics));
    assert.equal(report.runs.length, 1);
    const [run] = report.runs;
    // On the GPU, how close it came to the GPU's peaks follows (speed-of-light.ts).
    assert.deepEqual(Object.keys(run), cpu ? RUN_KEYS : [...RUN_KEYS, "speedOfLight"]);
    assert.equal(run.correct, true);
    assert.equal(run.size, 67);
    // The run's kernel, constexprs and grid are the first launch's.
    assert.equal(run.kernel, "layer_norm_bwd_dx_fused");
    assert.deepEqual(run.grid, [9, 1, 1]);
    assert.deepEqual(run.constexprs, { ROWS_PER_PROGRAM: 8, BLOCK_SIZE_N: 512 });
    assert.deepEqual(run.launches.map((l: any) => Object.keys(l)), [["kernel", "grid", "constexprs", "timing"], ["kernel", "grid", "constexprs", "timing"]]);
    assert.deepEqual(run.launches.map((l: any) => [l.kernel, l.grid]), [["layer_norm_bwd_dx_fused", [9, 1, 1]], ["layer_norm_bwd_dwdb", [5, 1, 1]]]);
    assert.deepEqual(run.launches[1].constexprs, { BLOCK_SIZE_M: 16, BLOCK_SIZE_N: 64 });
    const source = cpu ? "cpu-wall-clock" : run.timing.source;
    assert.equal(run.timing.source, source);
    for (const l of run.launches) {
      assert.equal(l.timing.source, cpu ? "cpu-wall-clock" : l.timing.source);
      assert.ok(l.timing.medianMs > 0);
    }
    if (cpu) assert.ok(Math.abs(run.timing.medianMs - run.launches[0].timing.medianMs - run.launches[1].timing.medianMs) < 1e-6);
    else assert.ok(run.timing.reps >= 5 && run.gbps > 0);
  });

  test(`${backend}: the human output has a line per launch under the run's median`, () => {
    const r = cli(["run", EXAMPLE, "--run", "layerNormBackwardWide", ...flags]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^layerNormBackwardWide \(2 launches: layer_norm_bwd_dx_fused, layer_norm_bwd_dwdb\) · size 517$/m);
    assert.match(r.stdout, /Match: true/);
    assert.match(r.stdout, /  Median: .* ms \(.*\), all launches\n    1\. layer_norm_bwd_dx_fused · grid \[65, 1, 1\] · ROWS_PER_PROGRAM=8, BLOCK_SIZE_N=1024 · .* ms \(min .*\)\n    2\. layer_norm_bwd_dwdb · grid \[32, 1, 1\] · BLOCK_SIZE_M=32, BLOCK_SIZE_N=32 · .* ms/);
  });
}

test("a single-launch run's entry has no launches key", async () => {
  const { code, report } = await runJson("examples/vector-add.kernel.ts", { cpu: true });
  assert.equal(code, 0);
  for (const run of report.runs) assert.ok(!("launches" in run));
});

test("--cpu: a scratch buffer shared by two launches, bound through a mapping", async () => {
  const { code, report } = await runJson(FIXTURE, { run: "goodTwoCopies", cpu: true });
  assert.equal(code, 0, JSON.stringify(report.diagnostics));
  assert.equal(report.runs[0].correct, true);
});

// [run, code, field as the message names it, a phrase of the message]
const rows: [string, string, string, RegExp][] = [
  ["launchesAndKernel", "KL3030", "`kernel`", /a run with `launches` has no run-wide `kernel`/],
  ["noLaunches", "KL3030", "`launches`", /must be a non-empty array of `\{ kernel, grid, args\?, constexprs\? \}`/],
  ["launchTypo", "KL3030", "`launches[0].grd`", /not a field of a launch/],
  ["launchNotAKernel", "KL3010", "`launches[1].kernel`", /must be a value made by kernel\(\.\.\.\)/],
  ["unknownRunArg", "KL3031", "`launches[1].args`", /'x_ptr' is bound to 'why', which is not one of the run's args/],
  ["foreignArray", "KL3031", "`launches[0].args.x_ptr`", /is not one of the run's args arrays/],
  ["launchZeroGrid", "KL3015", "`launches[1].grid`", /every axis must be a positive integer .* returned \[0\]/],
  ["launchNoConstexprs", "KL3013", "`launches[0].constexprs`", /no value for kernel 'copy_kernel''s constexpr parameter 'BLOCK'/],
  ["outputNotBound", "KL3021", "`outputs`", /'n' is not bound to a pointer parameter of any launch/],
];

for (const [name, code, field, phrase] of rows) {
  test(`${name}: ${code} naming the run and ${field}`, async () => {
    const { code: exit, report } = await runJson(FIXTURE, { run: name, cpu: true });
    assert.equal(exit, 4);
    assert.deepEqual(report.runs, []);
    assert.equal(report.diagnostics.length, 1, JSON.stringify(report.diagnostics));
    const [d] = report.diagnostics;
    assert.equal(d.code, code, d.message);
    assert.ok(d.message.startsWith(`Run '${name}', ${field}: `), d.message);
    assert.match(d.message, phrase);
    assert.equal(d.file, FIXTURE);
    assert.equal(d.line, FIXTURE_LINES.findIndex((l) => l.startsWith(`export const ${name} `)) + 1);
  });
}

test("GPU: a launch writing past a shared buffer is stopped at the tl.store, naming the program and lane", async () => {
  const { code, report } = await runJson(FIXTURE, { run: "shortScratch", reps: 3 });
  assert.equal(code, 4);
  const [d] = report.diagnostics;
  assert.match(d.message, /^Run 'shortScratch': /);
  assert.match(d.message, /copy_kernel: program \(\d+,0,0\), lane \d+ stores out_ptr\[900\] but out_ptr has 900 elements/);
  assert.equal(FIXTURE_LINES[d.line - 1].includes("tl.store"), true, d.message);
});

test("GPU: a launch after one it reads from, writing past its output, is still stopped at the tl.store", async () => {
  const { code, report } = await runJson(FIXTURE, { run: "shortOutput", reps: 0 });
  assert.equal(code, 4);
  assert.equal(report.diagnostics.length, 1, JSON.stringify(report.diagnostics));
  const [d] = report.diagnostics;
  assert.equal(d.code, "KL3101");
  assert.match(d.message, /^Run 'shortOutput': copy_kernel: program \(\d+,0,0\), lane \d+ stores out_ptr\[900\] but out_ptr has 900 elements/);
  assert.equal(FIXTURE_LINES[d.line - 1].includes("tl.store"), true, d.message);
});

// Issue 31: FlagGems' two-stage argmax; launch 2 loads mid_index[argmax(mid_value)], an address
// only launch 1's output decides. The check before the GPU launches must interpret launch 2 on
// the arrays launch 1 left, not on the run's poisoned ones (a false KL3101 at mid_index[25]).
test("GPU: a launch whose address comes from an earlier launch's output is checked on that output (no false KL3101)", async () => {
  const { code, report } = await runJson("test/learner/as-written/argmax-two-stage.kernel.ts", { size: 781, reps: 0 });
  assert.deepEqual(report.diagnostics, []);
  assert.equal(code, 0);
  assert.equal(report.runs[0].correct, true);
});
