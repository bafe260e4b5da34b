// How close a run came to this GPU's limits (the report's `speedOfLight`, harness/timing/speed-of-light.ts):
// the verdict, the fraction of each measured peak, and the roofline. A run with only `bytes` or
// only `flops` is drawn as the line it lies on and told which count places it; a run with
// neither is told what to add. CPU runs have no speedOfLight and get no section.

import type { RunReport } from "../../harness/report";
import type { ChartInstance, PageElement } from "./dom";
import { h, text, type Child } from "./elements";
import { size as formatSize } from "./format";
import { bandwidth, drawRoofline, flopRate } from "./roofline";
import { rooflineModel } from "./roofline-model";

type SpeedOfLight = NonNullable<RunReport["speedOfLight"]>;

/** The section, and the roofline to draw once the section is in the page (Chart.js measures its box). */
export function speedOfLightSection(name: string, runs: readonly RunReport[]): { section: PageElement; draw?: () => ChartInstance | undefined } | undefined {
  const assessed = runs.filter((r) => r.speedOfLight);
  if (assessed.length === 0) return undefined;
  // A sweep is summed up by its largest size: the one most likely to fill the GPU.
  const headline = assessed[assessed.length - 1];
  const sol = headline.speedOfLight!;
  // A sweep's roofline is a line of points; a sweep without both counts would be a pile of
  // parallel lines, so its sweep chart carries the roof instead (sweep-chart.ts).
  const placed = assessed.filter((r) => r.gbps !== null && r.gflops !== null);
  const model = assessed.length === 1 || placed.length > 0 ? rooflineModel(assessed.length === 1 ? assessed : placed, sol.peaks) : undefined;
  const canvas = model ? h("canvas", { role: "img", "aria-label": `roofline of ${name}: ${sol.message}` }) : undefined;
  const section = h(
    "div",
    { class: "speed-of-light", "data-testid": "speed-of-light", "data-verdict": sol.verdict },
    text("h3", assessed.length > 1 ? `Speed of light (n = ${formatSize(headline.size)})` : "Speed of light"),
    // "unknown" says what to add; the caption below says it for this run, so the verdict line is only the pill.
    h("p", { class: "sol-verdict", "data-testid": "sol-verdict" }, text("span", sol.verdict, { class: `pill verdict-${sol.verdict}` }), sol.verdict === "unknown" ? null : " ", sol.verdict === "unknown" ? null : text("span", sentence(sol))),
    fractions(sol),
    canvas ? h("div", { class: "chart-box roofline", "data-testid": "roofline" }, canvas) : null,
    caption(name, assessed),
    text("p", peaksNote(sol), { class: "muted peaks-note" }),
  );
  return { section, ...(canvas && model ? { draw: () => drawRoofline(canvas, name, model) } : {}) };
}

/** The verdict's message without its leading "memory-bound: " (the pill says it). */
function sentence(sol: SpeedOfLight): string {
  const rest = sol.message.startsWith(`${sol.verdict}: `) ? sol.message.slice(sol.verdict.length + 2) : sol.message;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

function fractions(sol: SpeedOfLight): PageElement | null {
  const parts: Child[] = [];
  if (sol.memoryFraction !== null) parts.push(fraction("Memory", sol.memoryFraction, bandwidth(sol.peaks.memoryGBps)));
  if (sol.computeFraction !== null) parts.push(fraction("Compute", sol.computeFraction, `${flopRate(sol.peaks.computeGflops)} (f32 FMA)`));
  return parts.length > 0 ? h("div", { class: "sol-fractions", "data-testid": "sol-fractions" }, ...parts) : null;
}

/** "Memory 79% of 3.90 TB/s" with a meter as long as the fraction (a meter: the CSP allows no inline styles). */
function fraction(label: string, value: number, peak: string): PageElement {
  const percent = Math.round(value * 100);
  const meter = h("meter", { class: "sol-meter", "aria-hidden": "true" });
  meter.setAttribute("min", "0");
  meter.setAttribute("max", "1");
  meter.setAttribute("value", String(Math.min(1, Math.max(0, value))));
  return h("p", { class: "sol-fraction" }, text("span", label, { class: "label" }), meter, text("span", `${percent}% of ${peak}`));
}

/** What the chart shows, and what a run without both counts should add. */
function caption(name: string, runs: readonly RunReport[]): PageElement | null {
  const hasBytes = runs.some((r) => r.gbps !== null);
  const hasFlops = runs.some((r) => r.gflops !== null);
  if (hasBytes && hasFlops) return text("p", "The run's point is its FLOP per byte (GFLOP/s ÷ GB/s) against its GFLOP/s; under the slanted roof memory bounds it, under the flat one arithmetic.", { class: "muted" });
  if (hasBytes) {
    return text("p", `${name} declares bytes but no flops: its bandwidth puts it on the dashed line, parallel to the memory roof; the gap between them is how far it is from this GPU's bandwidth. Add flops: (n) => … (the arithmetic a launch does) to place it as a point.`, { class: "muted sol-missing", "data-testid": "sol-missing" });
  }
  if (hasFlops) {
    return text("p", `${name} declares flops but no bytes: it is somewhere on the dashed level of its GFLOP/s. Add bytes: (n) => … (what a launch reads and writes) to place it as a point.`, { class: "muted sol-missing", "data-testid": "sol-missing" });
  }
  return text("p", `To see ${name} on the roofline, add bytes: (n) => … (the bytes a launch reads and writes) and flops: (n) => … (its arithmetic) to its defineRun.`, { class: "sol-missing", "data-testid": "sol-missing" });
}

function peaksNote(sol: SpeedOfLight): string {
  const when = new Date(sol.peaks.measuredAt);
  const date = Number.isNaN(when.getTime()) ? sol.peaks.measuredAt : when.toLocaleDateString();
  return `This GPU's peaks, ${sol.peaks.source === "cached" ? "measured" : "measured now"} ${date} (${sol.peaks.timing === "timestamp-query" ? "GPU timestamps" : "wall clock"}): a large copy, independent f32 FMA chains, and one near-empty launch (${(sol.peaks.launchMs * 1000).toPrecision(3)} µs). Delete peaks.json in Kernel Lab's cache folder to measure again.`;
}

/** One cell of a sweep's table: "memory-bound · 79%". */
export function verdictCell(run: RunReport): string {
  const sol = run.speedOfLight;
  if (!sol) return "—";
  const fraction = sol.verdict === "compute-bound" ? sol.computeFraction : sol.verdict === "memory-bound" ? sol.memoryFraction : null;
  return fraction === null ? sol.verdict : `${sol.verdict} · ${Math.round(fraction * 100)}%`;
}
