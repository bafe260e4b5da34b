// `kernel-lab run exercises/NAME.py` on a Python exercise (src/python/exercise.ts): the exercise's
// own run on the file's kernel, checked against the hidden reference (on the interpreter: puzzle
// 1 is 32 elements); a wrong kernel mismatches; a mistake is the Python diagnostic, exit 2.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { exerciseNamed } from "../../src/exercises/course";
import { pythonExerciseFile } from "../../src/python/exercise";
import { ensureBuilt, root } from "./build";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
const dir = mkdtempSync(path.join(os.tmpdir(), "kernel-lab-py-exercise-"));
const solved = pythonExerciseFile(exerciseNamed("puzzle-01")!, true);

before(ensureBuilt);

function run(name: string, text: string) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return spawnSync(process.execPath, ["bin/kernel-lab.js", "run", file, "--cpu", "--json"], { cwd: root, env, encoding: "utf8", timeout: 120_000 });
}

test("a solved Python exercise matches its hidden reference; the same kernel adding 11 does not", () => {
  const ok = run("puzzle-01-constant-add.py", solved);
  assert.equal(ok.status, 0, ok.stderr);
  const report = JSON.parse(ok.stdout);
  assert.equal(report.runs.length, 1);
  assert.equal(report.runs[0].correct, true);
  assert.equal(report.runs[0].exercise, "puzzle-01");
  assert.ok(solved.includes("x + 10.0"), solved);
  const wrong = run("wrong.py", solved.replace("x + 10.0", "x + 11.0"));
  assert.equal(wrong.status, 1, wrong.stderr);
  assert.equal(JSON.parse(wrong.stdout).runs[0].correct, false);
});

test("a Python exercise with a mistake: its diagnostic at the Python line, exit 2, nothing run", () => {
  const r = run("mistake.py", solved.replace("tl.arange(0, B0)", "tl.arange(0, N0)"));
  assert.equal(r.status, 2, r.stdout);
  assert.match(r.stderr, /mistake\.py:\d+:\d+ - error KL1041/);
  assert.equal(r.stdout, "");
});
