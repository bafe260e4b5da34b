// Where a mismatch came from and every out-of-bounds access, atomics included (issue 12, items 1
// and 2), end to end on the GPU (the instrumented correctness launch) and with --cpu (the
// interpreter's store hook): test/fixtures/provenance.kernel.ts. The reports come from the run in
// this process (test/support/run-in-process.ts), the human output from the built binary.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";
import { runJson as runInProcess } from "../support/run-in-process";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
const FILE = "test/fixtures/provenance.kernel.ts";

before(ensureBuilt);

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `kernel-lab run FILE --run RUN --json --reps 0 [--cpu]`, in this process (test/support/run-in-process.ts);
 * the human output below spawns the binary. Not timed: these tests are about what the checks found.
 */
function runJson(run: string, cpu: boolean): Promise<{ code: number; report: any }> {
  return runInProcess(FILE, { run, cpu, reps: 0 });
}

for (const cpu of [false, true]) {
  const on = cpu ? "--cpu" : "the GPU";

  test(`program 3 stores its block back to front: firstMismatch names program [3,0,0], lane 127 and the store's line (${on})`, async () => {
    const { code, report } = await runJson("wrongProgram", cpu);
    assert.equal(code, 1);
    const m = report.runs[0].firstMismatch;
    assert.equal(m.index, 384);
    assert.deepEqual(m.program, [3, 0, 0]);
    assert.equal(m.lane, 127);
    assert.deepEqual(m.source, { line: 11, column: 5 });
    assert.equal(report.runs[0].mismatchMap, undefined);
  });

  test(`the only out-of-bounds load is in program 5 of 10: KL3101 at the load names program and lane (${on})`, async () => {
    const { code, report } = await runJson("middleOutOfBounds", cpu);
    assert.equal(code, 4);
    assert.deepEqual(report.runs, []);
    const [d] = report.diagnostics;
    assert.equal(d.code, "KL3101");
    assert.deepEqual([d.line, d.column], [34, 9]);
    assert.match(d.message, /^Run 'middleOutOfBounds': middle_oob_kernel: program \(5,0,0\), lane (\d+) loads x_ptr\[\d+\] but x_ptr has 1200 elements/);
    const lane = Number(/lane (\d+)/.exec(d.message)![1]);
    assert.match(d.message, new RegExp(`x_ptr\\[${5 * 128 + lane + 1200}\\]`));
  });

  test(`the only out-of-bounds access is program 3's atomic (lane 77's bin one past the end): KL3101 at the atomic (${on})`, async () => {
    const { code, report } = await runJson("atomicOutOfBounds", cpu);
    assert.equal(code, 4);
    assert.deepEqual(report.runs, []);
    assert.equal(report.diagnostics.length, 1);
    const [d] = report.diagnostics;
    assert.equal(d.code, "KL3101");
    assert.deepEqual([d.line, d.column], [64, 3]);
    assert.equal(
      d.message,
      "Run 'atomicOutOfBounds': histogram_oob_kernel: program (3,0,0), lane 77 atomically updates hist_ptr[37] but hist_ptr has 37 elements; " +
        "mask the lanes past the end (the GPU would silently clamp this index)",
    );
  });

  test(`the same histogram in bounds (its masked-off lanes' bins past the end are no accesses) matches (${on})`, async () => {
    const { code, report } = await runJson("atomicInBounds", cpu);
    assert.equal(code, 0);
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.runs[0].correct, true);
    assert.equal(report.runs[0].mismatches, 0);
  });

  test(`a bin one too high from an atomic: firstMismatch names the atomic's line, no single program (${on})`, async () => {
    const { code, report } = await runJson("atomicWrongBin", cpu);
    assert.equal(code, 1);
    const { firstMismatch, mismatches } = report.runs[0];
    assert.equal(mismatches, 1);
    assert.equal(firstMismatch.got - firstMismatch.expected, 1);
    assert.deepEqual([firstMismatch.program, firstMismatch.lane, firstMismatch.atomic], [null, null, true]);
    assert.deepEqual(firstMismatch.source, { line: 147, column: 3 });
  });

  test(`a float atomic (one invocation's compare-and-swap loop) one past the end in program 2: KL3101 at it (${on})`, async () => {
    const { code, report } = await runJson("scalarAtomicOutOfBounds", cpu);
    assert.equal(code, 4);
    const [d] = report.diagnostics;
    assert.equal(d.code, "KL3101");
    assert.deepEqual([d.line, d.column], [96, 3]);
    assert.match(d.message, /: sum_oob_kernel: program \(2,0,0\), lane 0 atomically updates total_ptr\[1\] but total_ptr has 1 element;/);
  });

  test(`a wrong bottom-right quadrant: mismatchMap counts wrong elements only there (${on})`, async () => {
    const { code, report } = await runJson("wrongQuadrant", cpu);
    assert.equal(code, 1);
    const run = report.runs[0];
    assert.deepEqual(run.firstMismatch.program, [2, 2, 0]);
    const map = run.mismatchMap;
    assert.equal(map.output, "out_ptr");
    assert.deepEqual(map.shape, [64, 64]);
    assert.deepEqual(map.cell, [2, 2]);
    assert.equal(map.counts.length, 32);
    for (let r = 0; r < 32; r++) {
      for (let c = 0; c < 32; c++) assert.equal(map.counts[r][c], r >= 16 && c >= 16 ? 4 : 0, `cell ${r},${c}`);
    }
  });
}

test("the human output says where the first mismatch came from, in one line", () => {
  const r = cli(["run", FILE, "--run", "wrongProgram"]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^  First mismatch: out_ptr\[384\] = [\d.]+, expected [\d.]+ — written by program \(3,0,0\), lane 127, at line 11 \(128 elements differ\)$/m);
});

test("an element no program stored says so", () => {
  const r = cli(["run", "test/fixtures/mismatch.kernel.ts", "--run", "droppedTail"]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^  First mismatch: out_ptr\[896\] = NaN, expected [\d.]+ — no program stored it \(104 elements differ\)$/m);
});

test("an element updated by atomics says so, with the atomic's line", () => {
  const r = cli(["run", FILE, "--run", "atomicWrongBin"]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^  First mismatch: hist_ptr\[\d+\] = \d+, expected \d+ — updated by atomics at line 147 \(no single program wrote it\) \(1 element differs\)$/m);
});

// A big tile (64 × 64, 32 registers an invocation) has its accesses checked in a loop over the
// registers (codegen/instrument.ts): each lane is still checked and named, in a middle program.
test("a 64×64-tile dot: program (1,1,0)'s load of A and store of C past their ends are KL3101 at them; in bounds it matches (the GPU)", async () => {
  const cases: [string, number, number, string, (lane: number) => number][] = [
    ["dotLoadOutOfBounds", 184, 15, "loads a_ptr", (lane) => 150 * 40 + (64 + Math.floor(lane / 16)) * 40 + (lane % 16)],
    ["dotStoreOutOfBounds", 192, 3, "stores c_ptr", (lane) => 150 * 150 + (64 + Math.floor(lane / 64)) * 150 + 64 + (lane % 64)],
  ];
  for (const [run, line, column, access, index] of cases) {
    const { code, report } = await runJson(run, false);
    assert.equal(code, 4, run);
    assert.equal(report.diagnostics.length, 1, JSON.stringify(report.diagnostics));
    const [d] = report.diagnostics;
    assert.equal(d.code, "KL3101");
    assert.deepEqual([d.line, d.column], [line, column]);
    const found = new RegExp(`^Run '${run}': dot_oob_kernel: program \\(1,1,0\\), lane (\\d+) ${access}\\[(\\d+)\\] but ${access.split(" ")[1]} has (\\d+) elements`).exec(d.message);
    assert.ok(found, d.message);
    assert.equal(Number(found[2]), index(Number(found[1])), d.message);
    assert.equal(Number(found[3]), access.endsWith("a_ptr") ? 150 * 40 : 150 * 150);
  }
  const { code, report } = await runJson("dotInBounds", false);
  assert.equal(code, 0, JSON.stringify(report.diagnostics));
  assert.equal(report.runs[0].correct, true);
});
