// Races between the programs of one launch (issue 29, item 2), end to end on the built binary, on
// the GPU (the instrumented correctness launch) and with --cpu (the interpreter's access hook):
// test/fixtures/races.kernel.ts. KL3104: two programs store one element; KL3105: a program loads
// what another stores. The overlapping grid goes through the built binary (its exit code and
// --json); the other runs' reports are read in this process (test/support/run-in-process.ts), which
// spares a process and a GPU device per run.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";
import { runJson as runInProcess } from "../support/run-in-process";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
const FILE = "test/fixtures/races.kernel.ts";

before(ensureBuilt);

/** `kernel-lab run FILE --run RUN --json --reps 0 [--cpu]`, spawned. */
function runJson(run: string, cpu: boolean): { code: number | null; report: any } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", FILE, "--run", run, "--json", "--reps", "0", ...(cpu ? ["--cpu"] : [])], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  return { code: r.status, report: JSON.parse(r.stdout) };
}

/** The same run's exit code and report, in this process. */
const inProcess = (run: string, cpu: boolean) => runInProcess(FILE, { run, cpu, reps: 0 });

for (const cpu of [false, true]) {
  const on = cpu ? "--cpu" : "the GPU";

  test(`an overlapping grid (arange(0, 2 * BLOCK) from pid * BLOCK): KL3104 at the store names both programs, lanes and lines, and that the values agreed (${on})`, () => {
    const { code, report } = runJson("overlappingGrid", cpu);
    assert.equal(code, 4);
    assert.deepEqual(report.runs, []);
    assert.equal(report.diagnostics.length, 1);
    const [d] = report.diagnostics;
    assert.deepEqual([d.code, d.severity, d.line, d.column], ["KL3104", "error", 13, 3]);
    // Program p's lanes BLOCK.. are program p + 1's lanes 0..: the first element both store is 128.
    assert.match(d.message, /^Run 'overlappingGrid': overlap_kernel: program \((\d+),0,0\), lane (\d+) \(line 13\) and program \((\d+),0,0\), lane (\d+) \(line 13\) both store out_ptr\[(\d+)\], not through an atomic\. Both stored [-\d.e]+: the values agreed/);
    const [, p1, l1, p2, l2, index] = /program \((\d+),0,0\), lane (\d+) .* program \((\d+),0,0\), lane (\d+) .*out_ptr\[(\d+)\]/.exec(d.message)!.map(Number);
    assert.equal(Math.abs(p1 - p2), 1);
    assert.equal(p1 * 128 + l1, index);
    assert.equal(p2 * 128 + l2, index);
  });

  test(`the same overlap storing x * 2 + pid: KL3104 says the two values and that they differ (${on})`, async () => {
    const { code, report } = await inProcess("overlappingValues", cpu);
    assert.equal(code, 4);
    const [d] = report.diagnostics;
    assert.equal(d.code, "KL3104");
    const m = /They stored ([-\d.e]+) and ([-\d.e]+): whichever lands last wins/.exec(d.message);
    assert.ok(m, d.message);
    assert.ok(Math.abs(Math.abs(Number(m[1]) - Number(m[2])) - 1) < 1e-5, d.message);
  });

  test(`a program loading the next program's stored block: a KL3105 warning at the load, the run still checked (${on})`, async () => {
    const { code, report } = await inProcess("readsNeighbour", cpu);
    assert.equal(code, 0);
    assert.equal(report.runs[0].correct, true);
    assert.equal(report.diagnostics.length, 1);
    const [d] = report.diagnostics;
    assert.deepEqual([d.code, d.severity, d.line], ["KL3105", "warning", 49]);
    assert.match(d.message, /^Run 'readsNeighbour': neighbour_kernel: program \((\d+),0,0\), lane \d+ \(line 49\) loads out_ptr\[\d+\], which program \((\d+),0,0\), lane \d+ \(line 48\) stores in the same launch/);
  });

  test(`each program storing, loading back and storing again its own block: no race, no warning (${on})`, async () => {
    const { code, report } = await inProcess("ownBlocks", cpu);
    assert.equal(code, 0);
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.runs[0].correct, true);
  });
}
