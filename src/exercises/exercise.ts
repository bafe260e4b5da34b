// What an exercise of the course is (course.ts lists them). The learner's file is written from
// `template` with the stub's body in place of `$BODY`; the solution is the same file with the
// solution's body. The reference lives beside the exercise, not in the file: the file says
// `reference: exerciseReference("puzzle-01")` and the `kernel-lab` module the harness hands to
// kernel files looks it up (language/index.ts), so it is hidden from the learner yet runs on the
// command line, the desktop and the browser's worker alike.

export type ExerciseSeries = "Triton-Puzzles" | "Triton tutorials";

export interface Exercise {
  /** Stable id, as `exerciseReference` names it: "puzzle-01", "tutorial-03". */
  id: string;
  series: ExerciseSeries;
  /** Its number in its series (puzzle 1…12, tutorial 1…6). */
  number: number;
  title: string;
  /** The file written into the workspace's exercises/ folder. */
  file: string;
  /** What to write, in a few sentences (the file's header comment and the quick pick's detail). */
  task: string;
  /** Where the exercise comes from, with its licence. */
  credit: string;
  /** The file with `$BODY` where the kernel's body goes. */
  template: string;
  /** The body the learner starts from: the TODO, indented as the body. */
  stub: string;
  solution: string;
  /** Shown one at a time, each more specific than the last. */
  hints: readonly string[];
}

/** A run's reference: the expected outputs for its arguments and size. */
export type ExerciseReference = (args: never, size: number) => Record<string, ArrayLike<number>>;

/** Where the body goes in `template`. */
export const BODY = "$BODY";
