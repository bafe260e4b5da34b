// The results page of a Python file's run (Run File on a `.py`): whether the script finished, its
// traceback (click to reveal the line), each assert_close / allclose with its largest difference,
// the kernel launches (kernel, grid, constexprs, time), what the script printed, and each
// perf_report's plot with its table.

import type { PythonPlot } from "../../harness/python/report";
import type { FromWebview, PythonResultsView } from "../webview-protocol";
import { assertNever } from "../../ir/never";
import { page, type ChartInstance, type PageElement } from "./dom";
import { h, text, type Child } from "./elements";
import * as fmt from "./format";

/** Printed lines drawn at most (a benchmark may print thousands); the command line's --json has them all. */
export const MAX_OUTPUT_LINES = 400;

export interface PageHooks {
  post(message: FromWebview): void;
  /** Queues a chart to draw once the page is in the document (Chart.js measures its box). */
  chart(draw: () => ChartInstance | undefined): void;
}

export function pythonResultsPage(view: PythonResultsView, hooks: PageHooks): PageElement[] {
  const sections: Child[] = [header(view), verdict(view)];
  if (view.traceback) sections.push(traceback(view, hooks));
  if (view.diagnostics.length > 0) sections.push(diagnostics(view, hooks));
  if (view.checks.length > 0) sections.push(checks(view, hooks));
  sections.push(launches(view, hooks));
  sections.push(output(view));
  for (const plot of view.plots) sections.push(plotSection(plot, hooks));
  return sections.filter((s): s is PageElement => !!s);
}

/** How many printed lines the page shows (for the `rendered` acknowledgement). */
export function printedLines(view: PythonResultsView): number {
  return Math.min(MAX_OUTPUT_LINES, lines(view.stdout).length);
}

function lines(stdout: string): string[] {
  return stdout === "" ? [] : stdout.replace(/\n$/, "").split("\n");
}

function header(view: PythonResultsView): PageElement {
  const adapter = view.adapter;
  const finished = new Date(view.finishedAt);
  return h(
    "header",
    { class: "page-header" },
    text("h1", view.file),
    h(
      "p",
      { class: "meta" },
      text("span", "Python", { class: "pill" }),
      text("span", view.backend === "cpu" ? "CPU interpreter" : "GPU", { class: "pill" }),
      text("span", view.bench, { class: "pill", title: "How much of do_bench and perf_report ran (kernelLab.pythonBench)" }),
      text("span", `${view.python} · finished ${Number.isNaN(finished.getTime()) ? view.finishedAt : finished.toLocaleTimeString()}`, { class: "muted" }),
    ),
    h(
      "p",
      { class: "adapter", "data-testid": "adapter" },
      text("span", "Adapter", { class: "label" }),
      text("strong", adapter ? adapter.device || "(unnamed device)" : view.backend === "cpu" ? "none (CPU interpreter)" : "none"),
      adapter ? text("span", ` ${[adapter.vendor, adapter.backend].filter(Boolean).join(" · ")}`, { class: "muted" }) : null,
    ),
  );
}

function verdict(view: PythonResultsView): PageElement {
  const failed = view.checks.filter((c) => !c.passed).length;
  const checked = view.checks.length === 0 ? "" : failed === 0 ? `, ${view.checks.length} check${view.checks.length === 1 ? "" : "s"} passed` : `, ${failed} of ${view.checks.length} checks failed`;
  const [kind, message] = ((): [string, string] => {
    switch (view.outcome) {
      case "ok":
        return [failed === 0 ? "pass" : "fail", `${failed === 0 ? "✓" : "✗"} The script finished${checked}`];
      case "raised": {
        const at = view.diagnostics.find((d) => d.code === "KL3124");
        return ["fail", `✗ The script raised ${view.raised ?? "an exception"}${at ? ` at line ${at.line}` : ""}`];
      }
      case "compile-error":
        return ["fail", "✗ A kernel has compile errors"];
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

function revealable(item: PageElement, line: number, column: number, hooks: PageHooks): PageElement {
  item.tabIndex = 0;
  item.setAttribute("role", "button");
  item.title = `Show line ${line} in the editor`;
  const reveal = () => hooks.post({ type: "reveal", line, column });
  item.addEventListener("click", reveal);
  item.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      reveal();
    }
  });
  return item;
}

function traceback(view: PythonResultsView, hooks: PageHooks): PageElement {
  const at = view.diagnostics.find((d) => d.code === "KL3124");
  const pre = text("pre", view.traceback ?? "", { class: "traceback", "data-testid": "traceback" });
  return h("section", { class: "traceback-section" }, text("h2", "Traceback"), at ? revealable(pre, at.line, at.column, hooks) : pre);
}

function diagnostics(view: PythonResultsView, hooks: PageHooks): PageElement {
  return h(
    "section",
    { class: "diagnostics" },
    text("h2", "Diagnostics"),
    h(
      "ul",
      {},
      ...view.diagnostics.map((d) =>
        revealable(
          h("li", { class: `diagnostic ${d.severity}` }, text("span", `${d.severity} ${d.code}`, { class: "code" }), text("span", `${d.line}:${d.column}`, { class: "muted" }), text("span", d.message)),
          d.line,
          d.column,
          hooks,
        ),
      ),
    ),
  );
}

function checks(view: PythonResultsView, hooks: PageHooks): PageElement {
  return h(
    "section",
    { class: "checks" },
    text("h2", "Checks"),
    h(
      "table",
      { class: "sweep-table", "data-testid": "checks" },
      h("thead", {}, h("tr", {}, ...["Line", "Check", "Passed", "Largest difference"].map((c) => text("th", c)))),
      h(
        "tbody",
        {},
        ...view.checks.map((c) =>
          revealable(
            h(
              "tr",
              { class: c.passed ? "" : "mismatch" },
              text("td", String(c.line), { class: "num" }),
              text("td", c.kind === "assert_close" ? "torch.testing.assert_close" : "torch.allclose"),
              text("td", c.passed ? "✓" : "✗", { class: c.passed ? "pass" : "fail" }),
              text("td", c.maxAbsDiff === null ? "—" : fmt.diff(c.maxAbsDiff), { class: "num" }),
            ),
            c.line,
            1,
            hooks,
          ),
        ),
      ),
    ),
  );
}

function launches(view: PythonResultsView, hooks: PageHooks): PageElement {
  const more = view.launchesNotListed > 0 ? ` (and ${fmt.count(view.launchesNotListed)} more not listed)` : "";
  return h(
    "section",
    { class: "launches" },
    text("h2", `Launches · ${fmt.count(view.launches.length + view.launchesNotListed)}${more}`),
    view.launches.length === 0
      ? text("p", "The script launched no kernel (outside do_bench's timed calls).", { class: "muted" })
      : h(
          "table",
          { class: "sweep-table", "data-testid": "launches" },
          h("thead", {}, h("tr", {}, ...["Line", "Kernel", "Grid", "Constexprs", "Checked launch"].map((c) => text("th", c)))),
          h(
            "tbody",
            {},
            ...view.launches.map((l) =>
              revealable(
                h(
                  "tr",
                  {},
                  text("td", String(l.line), { class: "num" }),
                  text("td", l.kernel),
                  text("td", l.grid.join(" × "), { class: "num" }),
                  text("td", Object.entries(l.constexprs).map(([k, v]) => `${k}=${v}`).join(", ") || "—"),
                  text("td", fmt.ms(l.ms), { class: "num", title: "Wall clock of the checked launch (copies, bounds checks, read-back): not a benchmark; do_bench is" }),
                ),
                l.line,
                1,
                hooks,
              ),
            ),
          ),
        ),
  );
}

function output(view: PythonResultsView): PageElement {
  const all = lines(view.stdout);
  const shown = all.slice(0, MAX_OUTPUT_LINES);
  return h(
    "section",
    { class: "output" },
    text("h2", `Output · ${fmt.count(all.length)} line${all.length === 1 ? "" : "s"}`),
    all.length === 0 ? text("p", "The script printed nothing.", { class: "muted" }) : text("pre", shown.join("\n"), { "data-testid": "stdout" }),
    all.length > shown.length ? text("p", `… ${fmt.count(all.length - shown.length)} more lines in the Kernel Lab Python output`, { class: "muted" }) : null,
  );
}

function plotSection(plot: PythonPlot, hooks: PageHooks): PageElement {
  const canvas = h("canvas", { role: "img", "aria-label": `${plot.title}: ${plot.columns.slice(1).join(", ")} against ${plot.xlabel}` });
  hooks.chart(() => drawPlot(canvas, plot));
  return h(
    "section",
    { class: "plot", "data-testid": "plot", "data-plot": plot.title },
    text("h2", plot.title),
    h("div", { class: "chart-box" }, canvas),
    h(
      "table",
      { class: "sweep-table" },
      h("thead", {}, h("tr", {}, ...plot.columns.map((c, i) => text("th", i === 0 ? c : `${c}${plot.ylabel ? ` (${plot.ylabel})` : ""}`)))),
      h("tbody", {}, ...plot.rows.map((row) => h("tr", {}, ...row.map((v) => text("td", v === null ? "NaN" : fmt.value(Number(v.toPrecision(5))), { class: "num" }))))),
    ),
  );
}

const LINE_COLOURS = ["--kl-chart-kernel", "--kl-chart-baseline", "--kl-chart-roof"];

function drawPlot(canvas: PageElement, plot: PythonPlot): ChartInstance | undefined {
  const Chart = page.Chart;
  if (!Chart) return undefined;
  const style = page.getComputedStyle(page.document.body);
  const css = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const grid = css("--kl-chart-grid", "rgba(128,128,128,0.3)");
  Chart.defaults.color = css("--kl-chart-foreground", "#cccccc");
  Chart.defaults.borderColor = grid;
  const fallbacks = ["#3794ff", "#d18616", "#89d185", "#c586c0"];
  const datasets = plot.columns.slice(1).map((name, i) => {
    const colour = css(LINE_COLOURS[i] ?? "", fallbacks[i % fallbacks.length]);
    return {
      label: name,
      data: plot.rows.flatMap((row) => (row[i + 1] === null || row[0] === null ? [] : [{ x: row[0], y: row[i + 1] }])),
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: 2,
      pointRadius: 3,
      tension: 0,
    };
  });
  return new Chart(canvas, {
    type: "line",
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { type: plot.xLog ? "logarithmic" : "linear", title: { display: true, text: plot.xlabel }, grid: { color: grid } },
        y: { type: plot.yLog ? "logarithmic" : "linear", beginAtZero: !plot.yLog, title: { display: plot.ylabel !== "", text: plot.ylabel }, grid: { color: grid } },
      },
      plugins: { legend: { position: "bottom", labels: { usePointStyle: true, boxHeight: 6 } } },
    },
  });
}
