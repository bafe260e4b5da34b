// num_warps (Triton's name) in a run's constexprs or configs sets the invocations per program;
// the autotuner picks it like a block size, and the WGSL says the chosen workgroup size. The tuning
// and the WGSL go through the built binary; the run-definition errors are read in this process
// (test/support/run-in-process.ts).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./build";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { readFileSync } from "node:fs";
import { runJson } from "../support/run-in-process";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp", KERNEL_LAB_CACHE_DIR: mkdtempSync(join(tmpdir(), "kl-warps-")) };
const FIXTURE = "test/fixtures/num-warps.kernel.ts";

function run(...args: string[]) {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", FIXTURE, "--json", "--reps", "3", ...args], { cwd: root, env, encoding: "utf8", timeout: 180_000 });
  return { code: r.status, report: JSON.parse(r.stdout), stderr: r.stderr };
}

test("num_warps sets the workgroup size: 32 per warp", () => {
  const kernel = parseKernelFile(FIXTURE, readFileSync(join(root, FIXTURE), "utf8")).kernels[0];
  for (const warps of [1, 4, 8]) {
    const compiled = compileKernel(kernel, { BLOCK: 1024, num_warps: warps }).kernel!;
    assert.equal(compiled.abi.workgroupSize, 32 * warps);
    assert.match(compiled.wgsl, new RegExp(`@workgroup_size\\(${32 * warps}\\)`));
  }
});

test("configs of num_warps are tuned, each checked against the reference", () => {
  const { code, report } = run("--run", "rowSum");
  assert.equal(code, 0, JSON.stringify(report.diagnostics));
  const [entry] = report.runs;
  assert.equal(entry.correct, true);
  assert.equal(entry.autotune.candidates.length, 3);
  assert.ok(entry.autotune.candidates.every((c: { correct: boolean }) => c.correct));
  assert.ok([1, 4, 8].includes(entry.constexprs.num_warps), JSON.stringify(entry.constexprs));
});

test("a num_warps that is not a power of two up to 32 is a run-definition error naming the field", async () => {
  const { code, report } = await runJson(FIXTURE, { run: "badWarps", reps: 3 });
  assert.equal(code, 4);
  assert.match(report.diagnostics[0].message, /^Run 'badWarps', `constexprs`: num_warps must be a power of two from 1 to 32/);
});

test("num_stages other than 1 or 2 is a run-definition error naming the config", async () => {
  const { code, report } = await runJson(FIXTURE, { run: "badStages", reps: 3 });
  assert.equal(code, 4);
  assert.match(report.diagnostics[0].message, /^Run 'badStages', `configs\[1\]`: num_stages must be 1 \(each trip loads its own tiles\) or 2/);
});

test("wgsl --constexpr num_warps=N prints the WGSL for N warps, as a run with that config compiles it", () => {
  for (const warps of [2, 8]) {
    const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "wgsl", FIXTURE, "--constexpr", "BLOCK=1024", "--constexpr", `num_warps=${warps}`], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`@workgroup_size\\(${32 * warps}\\)`));
  }
});
