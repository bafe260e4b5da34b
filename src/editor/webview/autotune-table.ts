// The autotuner's candidates of a run: every config tried, the picked one highlighted.

import type { AutotuneReport } from "../../harness/report";
import type { PageElement } from "./dom";
import { h, text, type Child } from "./elements";
import * as fmt from "./format";

/** The constexprs that differ between candidates: the ones worth a column. */
export function tunedKeys(tune: AutotuneReport): string[] {
  const keys = Object.keys(tune.picked);
  const varying = keys.filter((k) => new Set(tune.candidates.map((c) => c.constexprs[k])).size > 1);
  return varying.length > 0 ? varying : keys;
}

function isPicked(tune: AutotuneReport, constexprs: Record<string, number>): boolean {
  return Object.keys(tune.picked).every((k) => constexprs[k] === tune.picked[k]);
}

/** Every candidate the autotuner tried, the picked one highlighted. */
export function autotuneTable(tune: AutotuneReport): PageElement {
  const keys = tunedKeys(tune);
  const hasGbps = tune.candidates.some((c) => c.gbps !== null);
  const hasGflops = tune.candidates.some((c) => c.gflops !== null);
  const hasNotes = tune.candidates.some((c) => c.note);
  const head = [...keys, "Median", ...(hasGbps ? ["GB/s"] : []), ...(hasGflops ? ["GFLOP/s"] : []), "Match", ""];
  if (hasNotes) head.push("Note");
  const picked = keys.map((k) => `${k} = ${tune.picked[k]}`).join(", ");
  const caption = tune.candidates.some((c) => c.correct)
    ? `Autotuning · ${tune.candidates.length} configs · picked ${picked}${tune.cached ? " · cached choice (Kernel Lab: Retune Kernel or kernel-lab run --retune tunes again)" : ""}`
    : `Autotuning · none of ${tune.candidates.length} configs matched the reference · ran ${picked}`;
  return h(
    "table",
    { class: "sweep-table autotune", "data-testid": "autotune" },
    text("caption", caption),
    h("thead", {}, h("tr", {}, ...head.map((c) => text("th", c, { class: c === "Match" ? "center" : c === "Note" || c === "" ? "left" : undefined })))),
    h(
      "tbody",
      {},
      ...tune.candidates.map((c) => {
        const chosen = isPicked(tune, c.constexprs);
        const cells: Child[] = [
          ...keys.map((k) => text("td", String(c.constexprs[k] ?? "—"), { class: "num" })),
          text("td", fmt.ms(c.medianMs), { class: "num" }),
        ];
        if (hasGbps) cells.push(text("td", fmt.rate(c.gbps, ""), { class: "num" }));
        if (hasGflops) cells.push(text("td", fmt.rate(c.gflops, ""), { class: "num" }));
        cells.push(text("td", c.correct ? "✓" : "✗", { class: `center mark ${c.correct ? "pass" : "fail"}` }));
        cells.push(chosen ? text("td", "picked", { class: "picked-badge" }) : text("td", ""));
        if (hasNotes) cells.push(text("td", c.note ?? "", { class: "note muted" }));
        return h("tr", { class: chosen ? "picked" : c.correct ? "" : "rejected", "data-picked": chosen ? "true" : undefined }, ...cells);
      }),
    ),
  );
}
