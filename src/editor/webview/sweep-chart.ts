// The sweep plot: throughput (GB/s, else GFLOP/s, else time) against problem size on a log
// axis, the kernel and its baseline as two lines. Colours come from CSS variables set in
// results.css from the VS Code theme, so the plot follows the colour theme.

import type { RunReport } from "../../harness/report";
import { page, type ChartInstance, type PageElement } from "./dom";
import { size as formatSize } from "./format";

export interface Metric {
  label: string;
  unit: string;
  /** The kernel's value for a run, or null when it has none. */
  kernel(run: RunReport): number | null;
  /** The baseline's value for a run (same unit), or null. */
  baseline(run: RunReport): number | null;
}

/**
 * Throughput when every point has it; time otherwise. With both counts, the rate of the roof
 * that bounds the largest size (its speed-of-light verdict): GFLOP/s for a compute-bound
 * kernel such as a matmul, else GB/s.
 */
export function metricFor(runs: readonly RunReport[]): Metric {
  const baselineRate = (run: RunReport, perKernel: number | null) =>
    perKernel !== null && run.baseline && run.timing ? (perKernel * run.timing.medianMs) / run.baseline.medianMs : null;
  const computeBound = runs[runs.length - 1]?.speedOfLight?.verdict === "compute-bound";
  if (runs.every((r) => r.gbps !== null) && !(computeBound && runs.every((r) => r.gflops !== null))) {
    return { label: "Throughput", unit: "GB/s", kernel: (r) => r.gbps, baseline: (r) => baselineRate(r, r.gbps) };
  }
  if (runs.every((r) => r.gflops !== null)) {
    return { label: "Compute", unit: "GFLOP/s", kernel: (r) => r.gflops, baseline: (r) => baselineRate(r, r.gflops) };
  }
  return { label: "Median time", unit: "ms", kernel: (r) => r.timing?.medianMs ?? null, baseline: (r) => r.baseline?.medianMs ?? null };
}

export function drawSweepChart(canvas: PageElement, name: string, runs: readonly RunReport[]): ChartInstance | undefined {
  const Chart = page.Chart;
  if (!Chart) return undefined;
  const style = page.getComputedStyle(page.document.body);
  const css = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const foreground = css("--kl-chart-foreground", "#cccccc");
  const grid = css("--kl-chart-grid", "rgba(128,128,128,0.3)");
  const kernelColour = css("--kl-chart-kernel", "#3794ff");
  const baselineColour = css("--kl-chart-baseline", "#d18616");
  Chart.defaults.color = foreground;
  Chart.defaults.borderColor = grid;
  Chart.defaults.font.family = css("--vscode-font-family", "sans-serif");
  Chart.defaults.font.size = 12;

  const sorted = [...runs].sort((a, b) => a.size - b.size);
  const metric = metricFor(sorted);
  const points = (value: (r: RunReport) => number | null) =>
    sorted.flatMap((r) => {
      const y = value(r);
      return y === null ? [] : [{ x: r.size, y }];
    });
  const baselineName = sorted.find((r) => r.baseline)?.baseline?.name;
  const line = (label: string, colour: string, data: { x: number; y: number }[], dashed: boolean) => ({
    label,
    data,
    borderColor: colour,
    backgroundColor: colour,
    borderWidth: 2,
    pointRadius: 3,
    borderDash: dashed ? [6, 4] : [],
    tension: 0,
  });
  const datasets = [line(`${name} (kernel)`, kernelColour, points(metric.kernel), false)];
  if (baselineName) datasets.push(line(`${baselineName} (baseline)`, baselineColour, points(metric.baseline), true));
  // The GPU's measured peak in the plotted unit, as a level across the sizes: how far each size is from it.
  const peaks = sorted.find((r) => r.speedOfLight)?.speedOfLight?.peaks;
  const roof = peaks && (metric.unit === "GB/s" ? peaks.memoryGBps : metric.unit === "GFLOP/s" ? peaks.computeGflops : undefined);
  if (roof !== undefined && sorted.length > 0) {
    const label = metric.unit === "GB/s" ? "this GPU's measured bandwidth (copy)" : "this GPU's measured f32 FMA rate";
    const level = [{ x: sorted[0].size, y: roof }, { x: sorted[sorted.length - 1].size, y: roof }];
    datasets.push({ ...line(label, css("--kl-chart-roof", foreground), level, false), pointRadius: 0, borderWidth: 3 });
  }

  return new Chart(canvas, {
    type: "line",
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: "nearest", intersect: false },
      scales: {
        x: {
          type: "logarithmic",
          title: { display: true, text: "problem size (elements, log scale)" },
          ticks: { maxRotation: 0, autoSkip: true, callback: (v: number) => (isPowerOfTen(v) || sorted.some((r) => r.size === v) ? formatSize(v) : "") },
          grid: { color: grid },
        },
        y: {
          type: metric.unit === "ms" ? "logarithmic" : "linear",
          beginAtZero: metric.unit !== "ms",
          title: { display: true, text: `${metric.label} (${metric.unit})` },
          grid: { color: grid },
        },
      },
      plugins: {
        legend: { position: "bottom", labels: { usePointStyle: true, boxHeight: 6 } },
        tooltip: {
          callbacks: {
            title: (items: { parsed: { x: number } }[]) => `size ${formatSize(items[0]?.parsed.x ?? 0)}`,
            label: (item: { dataset: { label: string }; parsed: { y: number } }) =>
              `${item.dataset.label}: ${item.parsed.y.toPrecision(4)} ${metric.unit}`,
          },
        },
      },
    },
  });
}

function isPowerOfTen(v: number): boolean {
  const l = Math.log10(v);
  return Math.abs(l - Math.round(l)) < 1e-9;
}
