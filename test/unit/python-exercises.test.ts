// Exercises in Triton's Python (src/python/exercise.ts): every exercise's Python file is
// valid and checks clean (with the exercise's parameter types) as written (the TODO stub) and solved; the solved file's kernel, put into
// the exercise's run, compiles to the same WGSL as the TypeScript solution; a mistake is reported
// as the Python's diagnostic, not run.

import { test } from "node:test";
import assert from "node:assert/strict";
import { COURSE, exerciseOfText, solutionFile } from "../../src/exercises/course";
import { checkPythonExercise, exerciseRunText, pythonExerciseFile, pythonExerciseFileName, pythonExerciseId } from "../../src/python/exercise";
import { compileKernel, parseKernelFile } from "../../src/compile";

/** Each kernel's WGSL for its run's literal constexprs, or its errors. */
function wgslOf(text: string): string[] {
  const parsed = parseKernelFile("exercise.kernel.ts", text);
  assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === "error"), []);
  return parsed.kernels.map((k) => {
    const result = compileKernel(k, parsed.literalConstexprs.get(k.name)?.[0] ?? {});
    return result.kernel?.wgsl ?? `errors: ${result.diagnostics.map((d) => d.message).join("; ")}`;
  });
}

for (const exercise of COURSE) {
  test(`${exercise.id} in Python: the stub and the solution check clean; the solution's run has the TypeScript solution's WGSL`, () => {
    const file = `/work/exercises/${pythonExerciseFileName(exercise)}`;
    const stub = pythonExerciseFile(exercise);
    const solved = pythonExerciseFile(exercise, true);
    assert.match(stub, /# TODO/);
    assert.equal(pythonExerciseId(stub), exercise.id);
    assert.equal(exerciseOfText(stub), exercise);
    for (const text of [stub, solved]) assert.deepEqual(checkPythonExercise(exercise, file, text).filter((d) => d.severity === "error"), [], text);
    const run = exerciseRunText(exercise, file, solved);
    assert.ok(!("diagnostics" in run), JSON.stringify(run));
    assert.equal(run.file, file.replace(/\.py$/, ".exercise.kernel.ts"));
    assert.match(run.text, new RegExp(`exerciseReference\\("${exercise.id}"\\)`));
    assert.deepEqual(wgslOf(run.text), wgslOf(solutionFile(exercise)));
  });
}

test("a Python exercise with a mistake gives the Python diagnostic, at its line, and no run", () => {
  const exercise = COURSE.find((e) => e.id === "tutorial-01")!;
  const solved = pythonExerciseFile(exercise, true);
  const wrong = solved.replace("tl.arange(0, BLOCK_SIZE)", "tl.arange(0, n_elements)");
  const run = exerciseRunText(exercise, "/work/exercises/tutorial-01-vector-add.py", wrong);
  assert.ok("diagnostics" in run);
  assert.deepEqual(run.diagnostics.map((d) => d.code), ["KL1041"]);
  assert.equal(wrong.slice(0, run.diagnostics[0].span.start).split("\n").length, wrong.split("\n").findIndex((l) => l.includes("n_elements)")) + 1);
  // A file that names no kernel of the exercise's name.
  const renamed = exerciseRunText(exercise, "/work/x.py", solved.replace(/add_kernel/g, "my_kernel"));
  assert.ok("diagnostics" in renamed && /needs a @triton\.jit function named 'add_kernel'/.test(renamed.diagnostics[0].message));
});
