// The results webview's script (bundled to media/results.js). It draws what the extension sends
// (validated against the shared protocol), remembers it with setState so a reloaded page
// redraws, and acknowledges each drawing with a `rendered` message.

import type { RunReport } from "../../harness/report";
import { parseToWebview, type FromWebview, type ResultsView, type RunHistoryView, type ToWebview } from "../webview-protocol";
import { page, type ChartInstance, type PageElement } from "./dom";
import { h, text, type Child } from "./elements";
import * as fmt from "./format";
import { mismatchHeatmap, mismatchNotes, mismatchSummary } from "./mismatch";
import { drawSweepChart, metricFor } from "./sweep-chart";
import { printsList } from "./prints-list";
import { autotuneTable, pickedLabel } from "./autotune-table";
import { historyTable } from "./history-table";
import { speedOfLightSection, verdictCell } from "./speed-of-light";
import { printedLines, pythonResultsPage } from "./python-results";
import { assertNever } from "../../ir/never";
import { accessMapSection, accessMapsDrawn } from "./access-map-view";
import { exerciseAccessSection } from "./exercise-access-view";

const vscode = page.acquireVsCodeApi();
const app = page.document.getElementById("app") ?? page.document.body;
let charts: ChartInstance[] = [];
/** Charts of the page being built, drawn once it is in the document (Chart.js measures its box). */
let pendingCharts: (() => ChartInstance | undefined)[] = [];
/** Rooflines of the page being built, counted for the `rendered` acknowledgement. */
let rooflines = 0;
let lastResults: ResultsView | undefined;
let current: ToWebview | undefined;

function post(message: FromWebview): void {
  vscode.postMessage(message);
}

page.addEventListener("message", (event) => {
  const message = parseToWebview(event.data);
  if (!message) {
    console.warn("Kernel Lab: ignored a malformed message", event.data);
    return;
  }
  show(message);
});

// Redraw on a theme change: the chart's colours are read from CSS variables when it is drawn.
new page.MutationObserver(() => current && show(current)).observe(page.document.body, { attributes: true, attributeFilter: ["class"] });

const saved = vscode.getState() as { message?: unknown; results?: unknown } | undefined;
const savedResults = parseToWebview(saved?.results);
if (savedResults?.type === "results") lastResults = savedResults.view;
const savedMessage = parseToWebview(saved?.message);
if (savedMessage) show(savedMessage);
post({ type: "ready" });

function show(message: ToWebview): void {
  current = message;
  for (const chart of charts) chart.destroy();
  charts = [];
  pendingCharts = [];
  rooflines = 0;
  switch (message.type) {
    case "results":
      lastResults = message.view;
      app.replaceChildren(...resultsPage(message.view));
      break;
    case "python-results":
      app.replaceChildren(...pythonResultsPage(message.view, { post, chart: (draw) => pendingCharts.push(draw) }));
      break;
    case "running":
      app.replaceChildren(banner("running", message.title, message.detail), ...stale());
      break;
    case "failed":
      app.replaceChildren(banner("failed", message.title, message.message), ...stale());
      break;
    default:
      assertNever(message);
  }
  for (const draw of pendingCharts) {
    const chart = draw();
    if (chart) charts.push(chart);
  }
  pendingCharts = [];
  vscode.setState({ message, results: lastResults ? { type: "results", view: lastResults } : undefined });
  const runs = message.type === "results" ? message.view.runs : [];
  const history = message.type === "results" ? (message.view.history ?? []).flatMap((x) => (x.change ? [x.change] : [])) : [];
  const accessMaps = message.type === "results" ? accessMapsDrawn(message.view) : 0;
  const speedOfLight = runs.flatMap((r) => (r.speedOfLight ? [r.speedOfLight.verdict] : []));
  post({
    type: "rendered",
    messageType: message.type,
    runs: runs.length,
    verdicts: runs.map((r) => (r.correct ? "match" : "mismatch")),
    chart: charts.length > 0,
    ...(history.length > 0 ? { history } : {}),
    ...(speedOfLight.length > 0 ? { speedOfLight, rooflines } : {}),
    ...(accessMaps > 0 ? { accessMaps } : {}),
    ...(message.type === "python-results"
      ? { python: { launches: message.view.launches.length, printedLines: printedLines(message.view), plots: charts.length, traceback: message.view.traceback !== null } }
      : {}),
  });
}

/** The previous results, dimmed, under a running or failed banner. */
function stale(): PageElement[] {
  if (!lastResults) return [];
  const previous = h("div", { class: "stale", "aria-hidden": "true" }, ...resultsPage(lastResults));
  return [previous];
}

function banner(kind: "running" | "failed", title: string, detail: string): PageElement {
  return h(
    "section",
    { class: `banner ${kind}`, role: kind === "failed" ? "alert" : "status" },
    h("span", { class: `codicon ${kind === "running" ? "spinner" : "cross"}`, "aria-hidden": "true" }),
    h("div", {}, text("strong", title), text("p", detail, { class: "detail" })),
  );
}

// ------------------------------------------------------------------------------------- page

function resultsPage(view: ResultsView): PageElement[] {
  const sections: Child[] = [header(view), verdict(view)];
  if (view.diagnostics.length > 0) sections.push(diagnostics(view));
  for (const [name, runs] of groupByName(view.runs)) {
    sections.push(view.mode === "sweep" || runs.length > 1 ? sweep(name, runs) : single(runs[0], historyOf(view, runs[0])));
  }
  if (view.wgsl.length > 0) sections.push(wgsl(view));
  return sections.filter((s): s is PageElement => !!s);
}

function header(view: ResultsView): PageElement {
  const adapter = view.adapter;
  const finished = new Date(view.finishedAt);
  return h(
    "header",
    { class: "page-header" },
    text("h1", view.file),
    h(
      "p",
      { class: "meta" },
      text("span", { run: "Run", sweep: "Sweep", retune: "Retune" }[view.mode], { class: "pill" }),
      text("span", view.backend === "cpu" ? "CPU interpreter" : "GPU", { class: "pill" }),
      text("span", `finished ${Number.isNaN(finished.getTime()) ? view.finishedAt : finished.toLocaleTimeString()}`, { class: "muted" }),
    ),
    adapter
      ? h(
          "p",
          { class: "adapter", "data-testid": "adapter" },
          text("span", "Adapter", { class: "label" }),
          text("strong", adapter.device || "(unnamed device)"),
          text("span", ` ${[adapter.vendor, adapter.backend].filter(Boolean).join(" · ")}`, { class: "muted" }),
          adapter.description ? text("span", ` — ${adapter.description}`, { class: "muted" }) : null,
        )
      : h("p", { class: "adapter", "data-testid": "adapter" }, text("span", "Adapter", { class: "label" }), text("strong", "none")),
    adapter?.note ? text("p", adapter.note, { class: "adapter-note muted", "data-testid": "adapter-note" }) : null,
  );
}

function verdict(view: ResultsView): PageElement {
  const wrong = view.runs.filter((r) => !r.correct).length;
  const [kind, message] = ((): [string, string] => {
    switch (view.outcome) {
      case "ok":
        return ["pass", `✓ ${view.runs.length === 1 ? "The run matches" : `All ${view.runs.length} runs match`} the reference`];
      case "mismatch":
        return ["fail", `✗ ${wrong} of ${view.runs.length} run${view.runs.length === 1 ? "" : "s"} did not match the reference`];
      case "compile-error":
        return ["fail", "✗ The file has compile errors"];
      case "no-adapter":
        return ["fail", "✗ No usable GPU adapter"];
      case "failure":
        return ["fail", "✗ The run failed"];
      default:
        return assertNever(view.outcome);
    }
  })();
  return text("p", message, { class: `verdict ${kind}`, "data-testid": "verdict" });
}

function diagnostics(view: ResultsView): PageElement {
  return h(
    "section",
    { class: "diagnostics" },
    text("h2", "Diagnostics"),
    h(
      "ul",
      {},
      ...view.diagnostics.map((d) => {
        const item = h(
          "li",
          { class: `diagnostic ${d.severity}`, role: "button", title: "Show in the editor" },
          text("span", `${d.severity} ${d.code}`, { class: "code" }),
          text("span", `${d.line}:${d.column}`, { class: "muted" }),
          text("span", d.message),
        );
        item.tabIndex = 0;
        const reveal = () => post({ type: "reveal", line: d.line, column: d.column });
        item.addEventListener("click", reveal);
        item.addEventListener("keydown", (e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            reveal();
          }
        });
        return item;
      }),
    ),
  );
}

function runTitle(run: RunReport, extra: string): PageElement {
  const constexprs = Object.entries(run.constexprs).map(([k, v]) => `${k} = ${v}`);
  return h(
    "div",
    { class: "run-title" },
    h("h2", {}, text("span", run.correct ? "✓" : "✗", { class: run.correct ? "mark pass" : "mark fail" }), ` ${run.name}`),
    text("p", [run.kernel, extra, ...constexprs].filter(Boolean).join(" · "), { class: "muted" }),
  );
}

/** The speed-of-light section of a run's sizes, its roofline queued to be drawn. */
function speedOfLight(name: string, runs: RunReport[]): PageElement | null {
  const made = speedOfLightSection(name, runs);
  if (!made) return null;
  const { draw } = made;
  if (draw) {
    rooflines++;
    pendingCharts.push(draw);
  }
  return made.section;
}

function single(run: RunReport, history: RunHistoryView | undefined): PageElement {
  return h(
    "section",
    { class: "run", "data-run": run.name },
    runTitle(run, `n = ${fmt.count(run.size)} · grid ${run.grid.join(" × ")}`),
    h("div", { class: "tables" }, correctnessTable(run), timingTable(run)),
    speedOfLight(run.name, [run]),
    mismatchHeatmap(run.mismatchMap),
    exerciseAccessSection(run.exerciseAccess, run.grid, (line, column) => post({ type: "reveal", line, column })),
    accessMapSection(run.accessMaps, run.grid, (line, column) => post({ type: "reveal", line, column })),
    run.autotune ? autotuneTable(run.autotune) : null,
    printsList(run),
    history ? historyTable(run, history) : null,
  );
}

function historyOf(view: ResultsView, run: RunReport): RunHistoryView | undefined {
  return view.history?.find((x) => x.run === run.name && x.size === run.size);
}

function correctnessTable(run: RunReport): PageElement {
  return table("Correctness", "correctness", [
    ["Match", h("span", { class: run.correct ? "pass" : "fail" }, run.correct ? "✓ true" : "✗ false")],
    ["Max abs diff", fmt.diff(run.maxAbsDiff)],
    ["Max rel diff", fmt.diff(run.maxRelDiff)],
    ["Mismatches", fmt.count(run.mismatches)],
    ["First mismatch", mismatchSummary(run, post)],
  ]);
}

function timingTable(run: RunReport): PageElement {
  const t = run.timing;
  const rows: [string, Child][] = t
    ? [
        ["Median", h("strong", {}, fmt.ms(t.medianMs))],
        ["Spread (min – max)", `${fmt.ms(t.minMs)} – ${fmt.ms(t.maxMs)}`],
        ["Repetitions", `${fmt.count(t.reps)}${(t.launchesPerSample ?? 1) > 1 ? ` samples of ${t.launchesPerSample} launches each` : ""} (${fmt.timingSource(t.source)})`],
        // A browser may coarsen GPU timestamps; the median means little below a few steps.
        ...(t.resolutionMs !== undefined ? [["Timestamp steps", h("span", { class: "warn" }, `${fmt.ms(t.resolutionMs)} (coarsened by the browser)`)] as [string, Child]] : []),
      ]
    : [["Median", "not timed"]];
  // A run with several launches: the median above is the whole sequence's, then each launch's own.
  for (const [i, l] of (run.launches ?? []).entries()) rows.push([`Launch ${i + 1}: ${l.kernel} · grid ${l.grid.join(" × ")}`, l.timing ? fmt.ms(l.timing.medianMs) : "not timed"]);
  if (run.gbps !== null) rows.push(["Bandwidth", fmt.rate(run.gbps, "GB/s")]);
  if (run.gflops !== null) rows.push(["Compute", fmt.rate(run.gflops, "GFLOP/s")]);
  if (run.baseline) {
    rows.push(["Baseline", `${run.baseline.name}: ${fmt.ms(run.baseline.medianMs)}`]);
    rows.push(["Speedup", h("span", { class: run.baseline.speedup >= 1 ? "pass" : "warn" }, fmt.speedup(run.baseline.speedup))]);
  }
  return table("Timing", "timing", rows);
}

function table(caption: string, testId: string, rows: [string, Child][]): PageElement {
  return h(
    "table",
    { class: "facts", "data-testid": testId },
    text("caption", caption),
    h("tbody", {}, ...rows.map(([label, value]) => h("tr", {}, text("th", label, { role: "rowheader" }), h("td", {}, value)))),
  );
}

function sweep(name: string, runs: RunReport[]): PageElement {
  const sorted = [...runs].sort((a, b) => a.size - b.size);
  const metric = metricFor(sorted);
  const canvas = h("canvas", { role: "img", "aria-label": `${metric.label} of ${name} against problem size` });
  const chartBox = h("div", { class: "chart-box" }, canvas);
  const wrong = sorted.filter((r) => !r.correct).length;
  const section = h(
    "section",
    { class: "run sweep", "data-run": name },
    h(
      "div",
      { class: "run-title" },
      h("h2", {}, text("span", wrong === 0 ? "✓" : "✗", { class: wrong === 0 ? "mark pass" : "mark fail" }), ` ${name}`),
      text("p", `${sorted[0]?.kernel ?? ""} · sweep over ${sorted.length} sizes${wrong ? ` · ${wrong} mismatched` : ""}`, { class: "muted" }),
    ),
    chartBox,
    sweepTable(sorted),
    mismatchNotes(sorted),
    speedOfLight(name, sorted),
  );
  pendingCharts.push(() => drawSweepChart(canvas, name, sorted));
  return section;
}

function sweepTable(runs: RunReport[]): PageElement {
  const hasGbps = runs.some((r) => r.gbps !== null);
  const hasGflops = runs.some((r) => r.gflops !== null);
  const hasBaseline = runs.some((r) => r.baseline);
  const tuned = runs.some((r) => r.autotune);
  const assessed = runs.some((r) => r.speedOfLight);
  const head = ["Size", "Match", "Max abs diff", "Mismatches", "Median", "Min – max"];
  if (tuned) head.push("Picked config");
  if (hasGbps) head.push("GB/s");
  if (hasGflops) head.push("GFLOP/s");
  if (assessed) head.push("Speed of light");
  if (hasBaseline) head.push("Baseline", "Speedup");
  return h(
    "table",
    { class: "sweep-table", "data-testid": "sweep-table" },
    h("thead", {}, h("tr", {}, ...head.map((c) => text("th", c)))),
    h(
      "tbody",
      {},
      ...runs.map((r) => {
        const cells: Child[] = [
          text("td", fmt.count(r.size), { class: "num" }),
          text("td", r.correct ? "✓" : "✗", { class: r.correct ? "pass" : "fail" }),
          text("td", fmt.diff(r.maxAbsDiff), { class: "num" }),
          text("td", fmt.count(r.mismatches), { class: "num" }),
          text("td", fmt.ms(r.timing?.medianMs), { class: "num" }),
          text("td", r.timing ? `${fmt.ms(r.timing.minMs)} – ${fmt.ms(r.timing.maxMs)}` : "—", { class: "num muted" }),
        ];
        if (tuned) {
          const tune = r.autotune;
          const label = tune ? pickedLabel(tune) + (tune.cached ? " (cached)" : "") : "—";
          cells.push(text("td", label, { class: "num picked-config", title: tune ? `${tune.candidates.length} configs tried` : undefined }));
        }
        if (hasGbps) cells.push(text("td", fmt.rate(r.gbps, ""), { class: "num" }));
        if (hasGflops) cells.push(text("td", fmt.rate(r.gflops, ""), { class: "num" }));
        if (assessed) cells.push(text("td", verdictCell(r), { class: "num sol-cell" }));
        if (hasBaseline) {
          cells.push(text("td", r.baseline ? fmt.ms(r.baseline.medianMs) : "—", { class: "num" }));
          cells.push(text("td", r.baseline ? fmt.speedup(r.baseline.speedup) : "—", { class: `num ${r.baseline && r.baseline.speedup < 1 ? "warn" : ""}` }));
        }
        return h("tr", { class: r.correct ? "" : "mismatch" }, ...cells);
      }),
    ),
  );
}

function wgsl(view: ResultsView): PageElement {
  return h(
    "section",
    { class: "wgsl" },
    text("h2", "Generated WGSL"),
    text("p", view.wgslNote, { class: "muted" }),
    ...view.wgsl.map((entry, i) => {
      const specialisation = Object.entries(entry.constexprs).map(([k, v]) => `${k} = ${v}`).join(", ");
      const details = h(
        "details",
        {},
        text("summary", `${entry.kernel}${specialisation ? ` (${specialisation})` : ""}`),
        h("pre", {}, text("code", entry.text)),
      );
      if (i === 0) details.setAttribute("open", "");
      return details;
    }),
  );
}

function groupByName(runs: readonly RunReport[]): Map<string, RunReport[]> {
  const groups = new Map<string, RunReport[]>();
  for (const run of runs) {
    const group = groups.get(run.name);
    if (group) group.push(run);
    else groups.set(run.name, [run]);
  }
  return groups;
}

