// Every exercise's solution file by id, for the harness's comparison of a learner's accesses with
// the solution's (harness/debug/exercise-access.ts). Kept apart from references.ts, which the
// `kernel-lab` module imports: the language module stays free of exercise texts.

import { COURSE, solutionFile } from "./course";

export function solutionText(id: string): string | undefined {
  const exercise = COURSE.find((e) => e.id === id);
  return exercise && solutionFile(exercise);
}
