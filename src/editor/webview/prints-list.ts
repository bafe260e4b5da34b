// What tl.devicePrint printed in a run: a collapsible list of its lines, capped so a kernel that
// prints thousands of lines keeps the panel light (the command line's --json has them all).

import type { RunReport } from "../../harness/report";
import type { PageElement } from "./dom";
import { h, text } from "./elements";
import * as fmt from "./format";

/** Lines drawn at most; the rest are counted. */
export const MAX_PRINT_LINES = 200;

export function printsList(run: RunReport): PageElement | null {
  if (!run.prints) return null;
  const shown = run.prints.slice(0, MAX_PRINT_LINES);
  const hidden = run.prints.length - shown.length + (run.printsDropped ?? 0);
  const summary = `tl.devicePrint · ${fmt.count(run.prints.length)} line${run.prints.length === 1 ? "" : "s"}${run.printsDropped ? ` (${fmt.count(run.printsDropped)} more did not fit the print buffer)` : ""}`;
  return h(
    "details",
    { class: "prints", "data-testid": "prints" },
    text("summary", summary),
    text("pre", shown.join("\n")),
    hidden > 0 ? text("p", `… ${fmt.count(hidden)} more line${hidden === 1 ? "" : "s"} not shown`, { class: "muted" }) : null,
  );
}
