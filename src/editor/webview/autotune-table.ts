// The autotuner's candidates of a run: every config tried (with the code generator's knobs, where
// the run tunes them), the picked one highlighted.

import type { AutotuneCandidate, AutotuneReport } from "../../harness/report";
import { formatKnobs, sameKnobs, varyingKnobs } from "../../ir/knobs";
import type { PageElement } from "./dom";
import { h, text, type Child } from "./elements";
import * as fmt from "./format";

/** The constexprs that differ between candidates: the ones worth a column. */
export function tunedKeys(tune: AutotuneReport): string[] {
  const keys = Object.keys(tune.picked);
  const varying = keys.filter((k) => new Set(tune.candidates.map((c) => c.constexprs[k])).size > 1);
  return varying.length > 0 || varyingKnobs(tune.candidates).length > 0 ? varying : keys;
}

/** The picked config's tuned constexprs and, where knobs were tuned, its knobs: "BLOCK=512, halfLoadForm=select". */
export function pickedLabel(tune: AutotuneReport, equals = "="): string {
  const knobs = tune.codegen ? formatKnobs(tune.codegen).replace(/=/g, equals) : "";
  return [...tunedKeys(tune).map((k) => `${k}${equals}${tune.picked[k]}`), knobs].filter(Boolean).join(", ");
}

function isPicked(tune: AutotuneReport, c: AutotuneCandidate): boolean {
  return Object.keys(tune.picked).every((k) => c.constexprs[k] === tune.picked[k]) && (!tune.codegen || sameKnobs(c.codegen, tune.codegen));
}

/** Every candidate the autotuner tried, the picked one highlighted. */
export function autotuneTable(tune: AutotuneReport): PageElement {
  const keys = tunedKeys(tune);
  const knobs = varyingKnobs(tune.candidates);
  const hasGbps = tune.candidates.some((c) => c.gbps !== null);
  const hasGflops = tune.candidates.some((c) => c.gflops !== null);
  const hasNotes = tune.candidates.some((c) => c.note);
  const head = [...keys, ...knobs, "Median", ...(hasGbps ? ["GB/s"] : []), ...(hasGflops ? ["GFLOP/s"] : []), "Match", ""];
  if (hasNotes) head.push("Note");
  // The picked knobs are named in full: they are what the run was compiled with.
  const picked = pickedLabel(tune, " = ");
  const what = tune.codegen ? "candidates" : "configs";
  const same = tune.identical ? ` · ${tune.identical} more gave the same WGSL as another` : "";
  const caption = tune.candidates.some((c) => c.correct)
    ? `Autotuning · ${tune.candidates.length} ${what} · picked ${picked}${tune.cached ? " · cached choice (Kernel Lab: Retune Kernel or kernel-lab run --retune tunes again)" : ""}${same}`
    : `Autotuning · none of ${tune.candidates.length} ${what} matched the reference · ran ${picked}${same}`;
  return h(
    "table",
    { class: "sweep-table autotune", "data-testid": "autotune" },
    text("caption", caption),
    h("thead", {}, h("tr", {}, ...head.map((c) => text("th", c, { class: c === "Match" ? "center" : c === "Note" || c === "" ? "left" : undefined })))),
    h(
      "tbody",
      {},
      ...tune.candidates.map((c) => {
        const chosen = isPicked(tune, c);
        const cells: Child[] = [
          ...keys.map((k) => text("td", String(c.constexprs[k] ?? "—"), { class: "num" })),
          ...knobs.map((k) => text("td", String(c.codegen?.[k] ?? "—"))),
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
