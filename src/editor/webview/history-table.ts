// A run's earlier results on this device (harness/timing/history.ts), under its tables.

import type { RunReport } from "../../harness/report";
import type { RunHistoryView } from "../webview-protocol";
import type { PageElement } from "./dom";
import { h, text } from "./elements";
import * as fmt from "./format";

/** This run's earlier results on this device, and what changed since the last timed one. */
export function historyTable(run: RunReport, history: RunHistoryView): PageElement {
  const change = history.change
    ? text("p", history.change, { class: `history-change ${history.speedup !== null && history.speedup < 0.98 ? "warn" : "pass"}`, "data-testid": "history-change" })
    : text("p", history.earlier.length === 0 ? "The first run of this kernel and size: later runs are compared with it." : "No earlier timed run to compare with.", { class: "muted", "data-testid": "history-change" });
  const rows = [...history.earlier].reverse().map((e) =>
    h(
      "tr",
      {},
      text("td", new Date(e.at).toLocaleString(), { class: "left" }),
      text("td", fmt.ms(e.medianMs), { class: "num" }),
      text("td", e.medianMs && run.timing ? fmt.speedup(e.medianMs / run.timing.medianMs) : "—", { class: "num" }),
      text("td", e.correct ? "✓" : "✗", { class: `center mark ${e.correct ? "pass" : "fail"}` }),
    ),
  );
  return h(
    "div",
    { class: "history", "data-testid": "history" },
    change,
    rows.length > 0
      ? h(
          "table",
          { class: "sweep-table" },
          text("caption", `History · ${history.earlier.length} earlier run${history.earlier.length === 1 ? "" : "s"} on this device`),
          h("thead", {}, h("tr", {}, text("th", "Finished", { class: "left" }), text("th", "Median"), text("th", "This run vs then"), text("th", "Match", { class: "center" }))),
          h("tbody", {}, ...rows),
        )
      : null,
  );
}
