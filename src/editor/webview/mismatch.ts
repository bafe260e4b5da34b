// The panel's account of a mismatch: the first wrong element in one line (who stored it, with a
// link to the tl.store in the editor), and for an output the run declares 2-D (`shapes`) a heatmap
// of `mismatchMap` — a table of cells over the output, darker where more elements are wrong.

import type { MismatchMap, RunReport } from "../../harness/report";
import { mismatchLine } from "../../harness/run/mismatch-text";
import type { PageElement } from "./dom";
import { h, text } from "./elements";
import * as fmt from "./format";

/** "out[4096] = 0.51, expected 0.73 — written by program (4,0,0), lane 0, at line 12", the line a link to the store. */
export function mismatchSummary(run: RunReport, post: (message: { type: "reveal"; line: number; column: number }) => void): PageElement | string {
  const m = run.firstMismatch;
  if (!m) return "—";
  const line = text("span", mismatchLine(m, (x) => fmt.value(x)), { "data-testid": "mismatch-line" });
  const source = m.source;
  if (!source) return line;
  const link = text("a", `show line ${source.line}`, { class: "reveal-store", role: "button", title: "Show the tl.store in the editor", "data-testid": "reveal-store" });
  link.tabIndex = 0;
  const reveal = () => post({ type: "reveal", line: source.line, column: source.column });
  link.addEventListener("click", reveal);
  link.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      reveal();
    }
  });
  return h("span", {}, line, " · ", link);
}

/** The heatmap of a 2-D output's wrong regions, or null when the run has no map. */
export function mismatchHeatmap(map: MismatchMap | undefined): PageElement | null {
  if (!map) return null;
  const most = Math.max(1, ...map.counts.flat());
  const [rowsPer, colsPer] = map.cell;
  const rows = map.counts.map((counts, r) =>
    h(
      "tr",
      {},
      ...counts.map((count, c) => {
        // Six shades: 0 none wrong, 1..5 a share of the worst cell (any wrong element shows).
        const level = count === 0 ? 0 : 1 + Math.min(4, Math.floor((4 * count) / most));
        const region = `rows ${r * rowsPer}–${Math.min(map.shape[0], (r + 1) * rowsPer) - 1}, columns ${c * colsPer}–${Math.min(map.shape[1], (c + 1) * colsPer) - 1}`;
        return h("td", { class: `heat heat-${level}`, title: `${region}: ${fmt.count(count)} wrong` });
      }),
    ),
  );
  const wrong = map.counts.flat().reduce((a, b) => a + b, 0);
  return h(
    "figure",
    { class: "mismatch-map", "data-testid": "mismatch-map" },
    h("table", { class: "heatmap", "aria-label": `where ${map.output} is wrong` }, h("tbody", {}, ...rows)),
    text(
      "figcaption",
      `${map.output} [${map.shape.join(" × ")}]: ${fmt.count(wrong)} wrong elements, in cells of ${rowsPer} × ${colsPer}`,
      { class: "muted" },
    ),
  );
}

/** Where each mismatched size first went wrong. */
export function mismatchNotes(runs: RunReport[]): PageElement | null {
  const wrong = runs.filter((r) => !r.correct);
  if (wrong.length === 0) return null;
  return h(
    "ul",
    { class: "mismatches", "data-testid": "mismatches" },
    ...wrong.map((r) => {
      const m = r.firstMismatch;
      const where = m ? mismatchLine(m, (x) => fmt.value(x)) : "no element reported";
      return text(
        "li",
        `✗ n = ${fmt.count(r.size)}: first mismatch ${where} · ${fmt.count(r.mismatches)} mismatches · max abs diff ${fmt.diff(r.maxAbsDiff)} · max rel diff ${fmt.diff(r.maxRelDiff)}`,
        { class: "fail" },
      );
    }),
  );
}
