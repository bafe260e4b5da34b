// The course, in the order it is taught: Triton-Puzzles' twelve, then Triton's tutorials 01–06.
// One file per exercise (its task, template, stub, solution, hints and hidden reference).

import type { Exercise } from "./exercise";
import { BODY } from "./exercise";
import { exercise as puzzle01 } from "./puzzle-01-constant-add";
import { exercise as puzzle02 } from "./puzzle-02-constant-add-block";
import { exercise as puzzle03 } from "./puzzle-03-outer-vector-add";
import { exercise as puzzle04 } from "./puzzle-04-outer-vector-add-block";
import { exercise as puzzle05 } from "./puzzle-05-fused-outer-mul";
import { exercise as puzzle06 } from "./puzzle-06-fused-outer-mul-backward";
import { exercise as puzzle07 } from "./puzzle-07-long-sum";
import { exercise as puzzle08 } from "./puzzle-08-long-softmax";
import { exercise as puzzle09 } from "./puzzle-09-simple-flash-attention";
import { exercise as puzzle10 } from "./puzzle-10-conv2d";
import { exercise as puzzle11 } from "./puzzle-11-matmul";
import { exercise as puzzle12 } from "./puzzle-12-quantized-matmul";
import { exercise as tutorial01 } from "./tutorial-01-vector-add";
import { exercise as tutorial02 } from "./tutorial-02-fused-softmax";
import { exercise as tutorial03 } from "./tutorial-03-matmul";
import { exercise as tutorial04 } from "./tutorial-04-dropout";
import { exercise as tutorial05 } from "./tutorial-05-layer-norm";
import { exercise as tutorial06 } from "./tutorial-06-fused-attention";

export const COURSE: readonly Exercise[] = [
  puzzle01, puzzle02, puzzle03, puzzle04, puzzle05, puzzle06, puzzle07, puzzle08, puzzle09, puzzle10, puzzle11, puzzle12,
  tutorial01, tutorial02, tutorial03, tutorial04, tutorial05, tutorial06,
];

export function exerciseNamed(id: string): Exercise | undefined {
  return COURSE.find((e) => e.id === id);
}

/** The learner's file: the task in a header comment, then the template with the stub's body. */
export function exerciseFile(exercise: Exercise): string {
  return `${exerciseHeader(exercise, "//", false)}${exercise.template.replace(BODY, () => exercise.stub)}`;
}

/** The solved file, as Show Solution shows it. */
export function solutionFile(exercise: Exercise): string {
  return `${exerciseHeader(exercise, "//", true)}${exercise.template.replace(BODY, () => exercise.solution)}`;
}

/**
 * Which exercise a file is, by the `exerciseReference("…")` its run calls (a kernel file) or the
 * `kernel_lab.check_exercise("…")` it ends with (a Python file: python/exercise.ts); undefined for any other file.
 */
export function exerciseOfText(text: string): Exercise | undefined {
  const match = /(?:exerciseReference|kernel_lab\.check_exercise)\(\s*["']([\w-]+)["']\s*\)/.exec(text);
  return match ? exerciseNamed(match[1]) : undefined;
}

/** The file's header comment, in TypeScript's `//` or Python's `#`. */
export function exerciseHeader(exercise: Exercise, comment: "//" | "#", solution: boolean): string {
  const run = comment === "#" ? "▶ Run File above the kernel, or Kernel Lab: Run Python File" : "▶ Run above defineRun, or Kernel Lab: Run Kernel";
  const lines = [
    `Kernel Lab exercise ${exercise.id}${solution ? " — the solution" : ""}: ${exercise.series} ${exercise.number}, "${exercise.title}"`,
    "",
    ...wrap(exercise.task, 96),
    "",
    ...(solution
      ? ["One way to write it; yours may differ and still match the reference."]
      : wrap(`Write the kernel's body, then run it (${run}): it passes when its outputs match the exercise's hidden reference. Stuck? Kernel Lab: Show Hint gives one hint at a time; Kernel Lab: Show Solution shows one way to write it.`, 96)),
    `From ${exercise.credit}.`,
  ];
  return `${lines.map((l) => (l ? `${comment} ${l}` : comment)).join("\n")}\n`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
