// An exercise's access maps in the results panel (the report's `exerciseAccess`,
// harness/debug/exercise-access.ts): the first program whose loads or stores touch other elements
// than the solution's, drawn twice side by side — the learner's map and the solution's — under the
// sentence that says what differs; or one line saying the compared programs agree.

import { exerciseAccessText, type ExerciseAccessReport } from "../../harness/debug/access-map";
import type { PageElement } from "./dom";
import { h, text } from "./elements";
import { accessMapSection } from "./access-map-view";

export function exerciseAccessSection(report: ExerciseAccessReport | undefined, grid: readonly number[], reveal: (line: number, column: number) => void): PageElement | null {
  if (!report) return null;
  const line = text("p", exerciseAccessText(report), { class: report.differs ? "fail" : "muted", "data-testid": "exercise-access-line" });
  if (!report.differs) return h("div", { class: "exercise-access", "data-testid": "exercise-access" }, line);
  const { yours, reference } = report.differs;
  const one = (map: typeof yours) => ({ programs: report.programs, maps: [map] });
  return h(
    "div",
    { class: "exercise-access", "data-testid": "exercise-access" },
    text("h3", "Your accesses beside the solution's"),
    line,
    h(
      "div",
      { class: "ea-pair" },
      accessMapSection(one(yours), grid, reveal, { title: "Yours", testId: "exercise-access-yours", note: "Each buffer's elements your program reads (blue) and writes (orange)." }),
      accessMapSection(one(reference), grid, reveal, { title: "The solution's", testId: "exercise-access-solution", note: "The same program in the course's solution (its lines are the solution's).", foreignLines: true }),
    ),
  );
}
