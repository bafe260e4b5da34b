// An exercise's accesses beside the solution's (issue 29, item 4): puzzle 4's solution agrees with
// itself over all 12 programs; a learner's kernel whose x mask stops one column short first differs
// at program (3,0,0), the tile holding the last column, and the command line says so.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { exerciseFile, exerciseNamed, solutionFile } from "../../src/exercises/course";
import { runFile } from "../../src/harness/run/run";
import { formatRunTiming } from "../../src/cli/format";

const dir = mkdtempSync(path.join(tmpdir(), "kl-exercise-access-"));
const puzzle = exerciseNamed("puzzle-04")!;

/** Puzzle 4 with the solution's body, `edit` applied to it. */
function learnerFile(edit: (body: string) => string): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}-${puzzle.file}`);
  writeFileSync(file, exerciseFile({ ...puzzle, stub: edit(puzzle.solution) }));
  return file;
}

test("puzzle 4's solution touches what the solution touches, in all 12 programs", async () => {
  const file = path.join(dir, puzzle.file);
  writeFileSync(file, solutionFile(puzzle));
  const [run] = (await runFile(file, { cpu: true })).runs;
  assert.equal(run.exercise, "puzzle-04");
  assert.deepEqual(run.exerciseAccess, { compared: 12, programs: 12 });
  assert.ok(formatRunTiming(run).includes("  Accesses: all 12 programs touch the same elements as the solution's"));
});

test("a mask one column short first differs at program (3,0,0): its loads of x read 3 elements, the solution's 4", async () => {
  const file = learnerFile((body) => body.replace("tl.load(x_ptr + off_x, off_x < N0)", "tl.load(x_ptr + off_x, off_x < N0 - 1)"));
  const [run] = (await runFile(file, { cpu: true })).runs;
  assert.equal(run.correct, false);
  const differs = run.exerciseAccess?.differs;
  assert.deepEqual(differs?.program, [3, 0, 0]);
  assert.equal(differs?.what, "your loads of x_ptr read 3 elements, the solution's 4; x_ptr[99] only the solution's");
  assert.deepEqual(differs?.yours.layers.find((l) => l.param === "x_ptr")?.touched, [[96, 99]]);
  assert.deepEqual(differs?.reference.layers.find((l) => l.param === "x_ptr")?.touched, [[96, 100]]);
  assert.ok(formatRunTiming(run).includes("  Accesses: program (3,0,0) is the first whose differ from the solution's: your loads of x_ptr read 3 elements, the solution's 4; x_ptr[99] only the solution's (--program 3 maps yours)"));
});
