// The course's data (src/exercises/), without running anything: every exercise has its hidden
// reference and no reference of its own in the file, hints, a stub that compiles clean, a
// solution that compiles clean, and an id that types/kernel-lab.d.ts accepts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { checkFile } from "../../src/compile";
import { BODY } from "../../src/exercises/exercise";
import { COURSE, exerciseFile, exerciseOfText, solutionFile } from "../../src/exercises/course";
import { EXERCISE_REFERENCES } from "../../src/exercises/references";
import { exerciseIdOf, exerciseReference } from "../../src/language";

const root = path.resolve(__dirname, "../..");

test("the course: Triton-Puzzles 1–12, then the tutorials 1–6, each with its reference and a file name of its own", () => {
  assert.deepEqual(COURSE.map((e) => e.id), [
    ...Array.from({ length: 12 }, (_, i) => `puzzle-${String(i + 1).padStart(2, "0")}`),
    ...Array.from({ length: 6 }, (_, i) => `tutorial-${String(i + 1).padStart(2, "0")}`),
  ]);
  assert.deepEqual(Object.keys(EXERCISE_REFERENCES), COURSE.map((e) => e.id));
  assert.equal(new Set(COURSE.map((e) => e.file)).size, COURSE.length);
  for (const e of COURSE) assert.match(e.file, new RegExp(`^${e.id}-[a-z0-9-]+\\.kernel\\.ts$`));
});

test("types/kernel-lab.d.ts's ExerciseId lists the course", () => {
  const dts = readFileSync(path.join(root, "types/kernel-lab.d.ts"), "utf8");
  const union = /export type ExerciseId =([^;]+);/.exec(dts)?.[1] ?? "";
  assert.deepEqual([...union.matchAll(/"([\w-]+)"/g)].map((m) => m[1]), COURSE.map((e) => e.id));
});

for (const e of COURSE) {
  test(`${e.id}: the file names its hidden reference and holds none; hints; stub and solution compile clean`, () => {
    assert.equal(e.template.split(BODY).length, 2, "one body");
    const file = exerciseFile(e);
    assert.deepEqual([...file.matchAll(/reference:\s*([^\n]+)/g)].map((m) => m[1]), [`exerciseReference("${e.id}"),`]);
    assert.equal(exerciseOfText(file), e);
    assert.match(file, /TODO/);
    assert.ok(e.hints.length >= 2, "at least two hints");
    for (const text of [file, solutionFile(e)]) {
      const diagnostics = checkFile(e.file, text);
      assert.deepEqual(diagnostics.map((d) => `${d.code} ${d.message}`), []);
    }
  });
}

test("exerciseReference: the reference of the id, marked as the exercise's; an unknown id says what the course has", () => {
  const reference = exerciseReference("puzzle-01");
  assert.equal(exerciseIdOf(reference), "puzzle-01");
  assert.deepEqual(Array.from(reference({ x_ptr: new Float32Array([1, 2]) }, 2).z_ptr), [11, 12]);
  assert.equal(exerciseIdOf(() => ({})), undefined);
  assert.throws(() => exerciseReference("puzzle-13"), /no such exercise; the course has puzzle-01, .*tutorial-06/);
});
