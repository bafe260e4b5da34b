// The course (src/exercises/): every exercise's solution matches its hidden reference on the GPU
// (lavapipe on CI) and with --cpu, and every stub — the file a learner starts from — runs and
// does not match. In-process, from the texts the editor writes (no file on disk: a run is given
// its text), one timed repetition: the sizes are the exercises' own, small.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { COURSE, exerciseFile, solutionFile } from "../../src/exercises/course";
import { runFileWithOutcome } from "../../src/harness/run/run";

const root = path.resolve(__dirname, "../..");

for (const exercise of COURSE) {
  test(`${exercise.id} (${exercise.title}): the solution matches its hidden reference on the GPU and the CPU; the stub runs and fails`, async () => {
    const file = path.join(root, "exercises", exercise.file);
    const solution = solutionFile(exercise);
    for (const cpu of [false, true]) {
      const { report, outcome } = await runFileWithOutcome(file, { cpu, reps: 1 }, solution);
      const where = cpu ? "--cpu" : "GPU";
      assert.deepEqual(report.diagnostics, [], `${where}: ${JSON.stringify(report.diagnostics)}`);
      assert.equal(outcome, "ok", `${where}: ${JSON.stringify(report.runs.map((r) => [r.size, r.maxAbsDiff, r.firstMismatch]))}`);
      assert.ok(report.runs.length > 0 && report.runs.every((r) => r.exercise === exercise.id), `${where}: every run names its exercise`);
    }
    const stub = await runFileWithOutcome(file, { cpu: true, reps: 1 }, exerciseFile(exercise));
    assert.deepEqual(stub.report.diagnostics, []);
    assert.equal(stub.outcome, "mismatch");
    assert.ok(stub.report.runs.every((r) => !r.correct && r.exercise === exercise.id));
  });
}
