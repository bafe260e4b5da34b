// The harness takes a file's text from a caller that has already read it (runFile's third
// argument) and parses that text, not the file again; without it, it reads the file itself.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { runFile, runFileWithOutcome } from "../../src/harness/run/run";

const file = path.resolve(__dirname, "../../examples/vector-add.kernel.ts");

test("the text handed to the harness is the one it parses", async () => {
  const text = readFileSync(file, "utf8").replace("x_ptr: Ptr<f32>", "x_ptr");
  const { outcome, report } = await runFileWithOutcome(file, { cpu: true }, text);
  assert.equal(outcome, "compile-error");
  assert.deepEqual(report.diagnostics.map((d) => [d.code, d.line]), [["KL1010", 5]]);
});

test("runFile(file) still reads the file itself", async () => {
  const report = await runFile(file, { cpu: true, size: 1000 });
  assert.deepEqual(report.diagnostics, []);
  assert.equal(report.runs.length, 1);
  assert.equal(report.runs[0].correct, true);
});

test("a file that cannot be read is a diagnostic, not a throw", async () => {
  const { outcome, report } = await runFileWithOutcome(path.join(path.dirname(file), "missing.kernel.ts"));
  assert.equal(outcome, "failure");
  assert.equal(report.diagnostics[0].code, "KL3001");
  assert.match(report.diagnostics[0].message, /^Cannot read the file/);
});
