// No correct kernel races (issue 29, item 2): every example and every kernel file under test/ that
// runs, each run at its smallest size with --cpu, gets neither KL3104 nor KL3105; the race
// fixture's own runs are the only ones that do. The interpreter is the CPU half of the check (the
// GPU half is the instrumented launch every GPU test of these files already goes through).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { loadKernelFile } from "../../src/harness/load/load";
import { runFileWithOutcome } from "../../src/harness/run/run";

const root = path.resolve(__dirname, "../..");
const RACY = new Set(["test/fixtures/races.kernel.ts"]);
// Kernels written never to end (the fault fixtures): program 0 spins before its first store, so no
// second program ever runs and there is nothing to race; they stop at a small step limit instead
// of 3e7 steps (endless-while took 8 of this test's 24 s), and must stop there with KL3102.
const ENDLESS = new Set(["test/fixtures/endless-while.kernel.ts", "test/fixtures/endless-loop.kernel.ts", "test/editor/workspace/faults/endless-loop.kernel.ts"]);

function kernelFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return name === "node_modules" ? [] : kernelFiles(rel);
    return rel.endsWith(".kernel.ts") ? [rel] : [];
  });
}

const files = [...kernelFiles("examples"), ...kernelFiles("test")].filter((f) => !RACY.has(f));

test(`no run of the ${files.length} example and test kernel files races between programs (--cpu, smallest size, endless loops cut at 3e7 steps)`, async () => {
  const found: string[] = [];
  let runs = 0;
  const endless: string[] = [];
  for (const file of files) {
    const loaded = await loadKernelFile(path.join(root, file));
    for (const run of loaded.runs) {
      const sizes = (run.definition as { sizes?: unknown }).sizes;
      const size = Array.isArray(sizes) && sizes.every((s) => typeof s === "number") ? Math.min(...(sizes as number[])) : undefined;
      const { report } = await runFileWithOutcome(path.join(root, file), { cpu: true, reps: 0, run: run.name, ...(size !== undefined ? { size } : {}), maxSteps: ENDLESS.has(file) ? 1e5 : 3e7 });
      runs++;
      if (ENDLESS.has(file)) endless.push(`${file} ${report.diagnostics.map((d) => d.code).join(",")}`);
      for (const d of report.diagnostics) if (d.code === "KL3104" || d.code === "KL3105") found.push(`${file}:${d.line} ${d.code} ${d.message}`);
    }
  }
  assert.ok(runs > 100, `${runs} runs`);
  assert.deepEqual(found, []);
  assert.deepEqual(endless.sort(), [...ENDLESS].sort().map((f) => `${f} KL3102`), "each endless fixture is one run, stopped by the step limit");
  // The same path does find a race: the overlapping grid of the race fixture.
  const { report } = await runFileWithOutcome(path.join(root, "test/fixtures/races.kernel.ts"), { cpu: true, reps: 0, run: "overlappingGrid" });
  assert.deepEqual(report.diagnostics.map((d) => d.code), ["KL3104"]);
});
