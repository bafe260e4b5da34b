// tl.devicePrint and tl.deviceAssert end to end, on the GPU and with --cpu: the same sorted lines
// for a scalar and a block in a grid of 4 programs, a passing assertion, and one that fails only
// in program 2 (KL3110 with its message, program and lane at the call). The human output and the
// failing assertion go through the built binary (stderr, exit code); the other reports are read in
// this process (test/support/run-in-process.ts), which spares a process and a GPU device per run.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";
import { runJson } from "../support/run-in-process";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
const FILE = "test/fixtures/device-print.kernel.ts";

before(ensureBuilt);

/** `kernel-lab run FILE --reps 1 ARGS…`, spawned. */
function run(args: string[]) {
  return spawnSync(process.execPath, ["bin/kernel-lab.js", "run", FILE, "--reps", "1", ...args], { cwd: root, env, encoding: "utf8", timeout: 120_000 });
}

/** `kernel-lab run FILE --run RUN --reps 1 --json [--cpu]`, in this process. */
const report = (run: string, cpu: boolean) => runJson(FILE, { run, reps: 1, cpu });

const expected: string[] = [];
for (let pid = 0; pid < 4; pid++) {
  expected.push(`pid (${pid}, 0, 0) idx () pid: ${pid}`);
  for (let i = 0; i < 4; i++) expected.push(`pid (${pid}, 0, 0) idx (${i}) offs: ${pid * 4 + i}`);
}

for (const backend of ["gpu", "cpu"] as const) {
  const extra = backend === "cpu" ? ["--cpu"] : [];

  test(`devicePrint (${backend}): a scalar and a block, one line per element per program, sorted`, async () => {
    const { code, report: r } = await report("prints", backend === "cpu");
    assert.equal(code, 0, JSON.stringify(r.diagnostics));
    assert.equal(r.runs[0].correct, true);
    assert.deepEqual(r.runs[0].prints, expected);
    // The prints after docs/LANGUAGE.md §4's keys (on the GPU the speed of light follows them).
    assert.deepEqual(Object.keys(r.runs[0]).filter((k) => k !== "speedOfLight" && k !== "bytes").slice(-1), ["prints"]);
  });

  test(`devicePrint (${backend}): human output prints the lines on stderr`, () => {
    const r = run(["--run", "prints", ...extra]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.split("\n").filter((l) => l.startsWith("pid (")).join("\n"), expected.join("\n"));
    assert.doesNotMatch(r.stdout, /pid \(/);
  });

  test(`devicePrint (${backend}): a run with two launches lists the first launch's lines, then the second's`, async () => {
    const { code, report: r } = await report("sequence", backend === "cpu");
    assert.equal(code, 0, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.runs[0].prints, [...expected.slice(0, 10), "pid (0, 0, 0) idx () second launch: 0", "pid (1, 0, 0) idx () second launch: 1"]);
  });

  test(`devicePrint (${backend}): lines past the print buffer's 2047 are counted, not shown`, async () => {
    const { code, report: r } = await report("overflow", backend === "cpu");
    assert.equal(code, 0, JSON.stringify(r.diagnostics));
    assert.equal(r.runs[0].prints.length, 2047);
    assert.equal(r.runs[0].printsDropped, 8 * 513 - 2047);
  });

  test(`deviceAssert (${backend}): fails only in program 2, with its message, program, lane and line`, () => {
    const r = run(["--run", "failing", "--json", ...extra]);
    const failed = JSON.parse(r.stdout);
    assert.equal(r.status, 4);
    const d = failed.diagnostics[0];
    assert.equal(d.code, "KL3110");
    assert.equal(d.line, 28);
    assert.match(d.message, /tl\.deviceAssert failed: lane 1 of program 2 \(program \(2, 0, 0\), idx \(1\)\)/);
  });
}
