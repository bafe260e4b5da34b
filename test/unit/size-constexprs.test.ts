// Issue 31 item 6: constexprs that depend on the size. A run's `constexprs` may be a function of
// the size, and runs made by a function may be exported as an array; the harness evaluates them
// per size and compiles once per distinct set. Without running the file (the editor), a
// constexpr only the run knows is checked with stand-ins, keeping what doesn't depend on its
// value; `kernel-lab check` runs the file's top level for the values of each size.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { checkFile, parseKernelFile } from "../../src/compile";
import { runFileWithOutcome } from "../../src/harness/run/run";
import { runValuesOf } from "../../src/harness/run/size-constexprs";
import { nextPowerOf2, next_power_of_2 } from "../../src/language";

const FIXTURE = path.resolve(__dirname, "../fixtures/size-constexprs.kernel.ts");
const TEXT = readFileSync(FIXTURE, "utf8");

async function sweep(run: string) {
  const compiles: string[] = [];
  const result = await runFileWithOutcome(FIXTURE, { cpu: true, sweep: true, run, onProgress: (p) => void (p.phase === "compile" && compiles.push(p.message)) });
  return { ...result, compiles };
}

test("nextPowerOf2 is Triton's next_power_of_2", () => {
  assert.deepEqual([0, 1, 2, 3, 33, 781, 1000, 1024, 1025].map(nextPowerOf2), [1, 1, 2, 4, 64, 1024, 1024, 1024, 2048]);
  assert.equal(next_power_of_2, nextPowerOf2);
});

test("a sweep compiles once per distinct constexpr set: 700 and 1000 share BLOCK = 1024, 33 takes 64", async () => {
  const { outcome, report, compiles } = await sweep("shared");
  assert.equal(outcome, "ok", JSON.stringify(report.diagnostics));
  assert.deepEqual(report.runs.map((r) => [r.size, r.constexprs, r.correct]), [[700, { BLOCK: 1024 }, true], [1000, { BLOCK: 1024 }, true], [33, { BLOCK: 64 }, true]]);
  assert.equal(compiles.length, 2, compiles.join("\n"));
});

test("constexprs computed from the size, one of them the size itself: a set and a compile per size", async () => {
  const { outcome, report, compiles } = await sweep("byFunction");
  assert.equal(outcome, "ok", JSON.stringify(report.diagnostics));
  assert.deepEqual(report.runs.map((r) => [r.size, r.constexprs, r.correct]), [
    [100, { n_cols: 100, BLOCK_N: 128 }, true], [130, { n_cols: 130, BLOCK_N: 256 }, true], [33, { n_cols: 33, BLOCK_N: 64 }, true],
  ]);
  assert.equal(compiles.length, 3);
});

test("runs made by a function and exported as an array run, each under its own name; --run takes the export", async () => {
  const { outcome, report } = await sweep("built");
  assert.equal(outcome, "ok", JSON.stringify(report.diagnostics));
  assert.deepEqual(report.runs.map((r) => [r.name, r.size, r.constexprs, r.correct]), [
    ["rows_100", 100, { n_cols: 100, BLOCK_N: 128 }, true], ["rows_7", 7, { n_cols: 7, BLOCK_N: 8 }, true],
  ]);
});

test("a constexprs function that throws for a size is KL3040 naming the run and the size", async () => {
  const { outcome, report } = await sweep("throws");
  assert.equal(outcome, "failure");
  assert.deepEqual(report.runs.map((r) => r.size), [16]);
  assert.equal(report.diagnostics.length, 1);
  assert.equal(report.diagnostics[0].code, "KL3040");
  assert.equal(report.diagnostics[0].message, "Run 'throws', `constexprs(5)`: threw Error: no block for 5 columns. Fix the function; it runs on the host.");
  assert.equal(report.diagnostics[0].line, TEXT.split("\n").findIndex((l) => l.startsWith("export const throws ")) + 1);
});

test("without running the file, constexprs only the run knows are not 'missing' (no KL2011) and the file checks clean", () => {
  const parsed = parseKernelFile("f.kernel.ts", TEXT);
  assert.deepEqual([...parsed.runTimeConstexprs.get("scale_rows")!.names].sort(), ["BLOCK_N", "n_cols"]);
  assert.deepEqual(checkFile("f.kernel.ts", TEXT), []);
});

test("with stand-ins, a check that depends on the value is left out; a mistake that doesn't is still reported", () => {
  const withAssert = TEXT.replace("const row = tl.programId(0);", "const row = tl.programId(0);\n  tl.staticAssert(BLOCK_N >= 256);");
  assert.deepEqual(checkFile("f.kernel.ts", withAssert), []);
  const withMistake = TEXT.replace("x * 2, { mask }", "x * 2, { mask, evictionPolice: 1 }");
  const found = checkFile("f.kernel.ts", withMistake);
  assert.deepEqual(found.map((d) => d.code), ["KL1042"]);
  assert.equal(withMistake.slice(found[0].span.start, found[0].span.end), "evictionPolice");
});

test("kernel-lab check's values: the file's top level run, every size of each run; with them, a value the run truly gives is checked", async () => {
  const parsed = parseKernelFile(FIXTURE, TEXT);
  const values = await runValuesOf(FIXTURE, TEXT, parsed);
  assert.deepEqual(values?.get("copy_kernel"), [{ BLOCK: 1024 }, { BLOCK: 1024 }, { BLOCK: 64 }]);
  assert.deepEqual(values?.get("scale_rows")?.slice(0, 3), [{ n_cols: 100, BLOCK_N: 128 }, { n_cols: 130, BLOCK_N: 256 }, { n_cols: 33, BLOCK_N: 64 }]);
  assert.deepEqual(checkFile(FIXTURE, TEXT, undefined, values), []);
  // A run that gives BLOCK_N = n (not a power of two for 100): the check says so, as the run would.
  const wrong = TEXT.replace("constexprs: (n: number) => ({ n_cols: n, BLOCK_N: nextPowerOf2(n) })", "constexprs: (n: number) => ({ n_cols: n, BLOCK_N: n })");
  const wrongValues = await runValuesOf(FIXTURE, wrong, parseKernelFile(FIXTURE, wrong));
  const found = checkFile(FIXTURE, wrong, undefined, wrongValues);
  assert.ok(found.length > 0 && found.every((d) => d.severity === "error"), JSON.stringify(found));
  assert.ok(found.some((d) => /100/.test(d.message)), found.map((d) => d.message).join("\n"));
  assert.deepEqual(checkFile(FIXTURE, wrong), [], "without the values, stand-ins keep the editor quiet");
});
