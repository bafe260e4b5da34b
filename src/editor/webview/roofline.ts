// Draws a roofline (roofline-model.ts) with Chart.js: log-log axes, the two roofs from the
// adapter's measured peaks, a run as a point (a sweep as a line of points, one per size), and a
// run with only one of its counts as the line it lies on. Colours come from the theme's CSS
// variables, as the sweep chart's do.

import { page, type ChartInstance, type PageElement } from "./dom";
import { size as formatSize } from "./format";
import type { Point, RooflineModel } from "./roofline-model";

export function drawRoofline(canvas: PageElement, name: string, model: RooflineModel): ChartInstance | undefined {
  const Chart = page.Chart;
  if (!Chart) return undefined;
  const style = page.getComputedStyle(page.document.body);
  const css = (variable: string, fallback: string) => style.getPropertyValue(variable).trim() || fallback;
  const foreground = css("--kl-chart-foreground", "#cccccc");
  const grid = css("--kl-chart-grid", "rgba(128,128,128,0.3)");
  const roofColour = css("--kl-chart-roof", foreground);
  const kernelColour = css("--kl-chart-kernel", "#3794ff");
  Chart.defaults.color = foreground;
  Chart.defaults.borderColor = grid;
  Chart.defaults.font.family = css("--vscode-font-family", "sans-serif");
  Chart.defaults.font.size = 12;

  const line = (label: string, data: Point[], colour: string, options: { dashed?: boolean; width?: number; points?: number } = {}) => ({
    label,
    data,
    showLine: true,
    borderColor: colour,
    backgroundColor: colour,
    borderWidth: options.width ?? 2,
    pointRadius: options.points ?? 0,
    pointHoverRadius: options.points ? options.points + 2 : 0,
    borderDash: options.dashed ? [6, 4] : [],
    tension: 0,
  });
  const { peaks } = model;
  const datasets = [
    line(`memory roof: ${bandwidth(peaks.memoryGBps)}`, model.memoryRoof, roofColour, { width: 3 }),
    line(`compute roof: ${flopRate(peaks.computeGflops)} (f32 FMA)`, model.computeRoof, roofColour, { width: 3, dashed: false }),
  ];
  if (model.points.length > 0) {
    const label = model.points.length === 1 ? `${name} (n = ${formatSize(model.points[0].size)})` : `${name}, sizes ${formatSize(model.points[0].size)} … ${formatSize(model.points[model.points.length - 1].size)}`;
    datasets.push({ ...line(label, model.points, kernelColour, { points: 5 }), showLine: model.points.length > 1 });
  }
  for (const b of model.bandwidthLines) {
    datasets.push(line(`${name} (n = ${formatSize(b.size)}): ${bandwidth(b.gbps)}, somewhere on this line (add flops to place it)`, b.line, kernelColour, { dashed: true }));
  }
  for (const c of model.computeLevels) {
    datasets.push(line(`${name} (n = ${formatSize(c.size)}): ${flopRate(c.gflops)}, somewhere on this level (add bytes to place it)`, c.line, kernelColour, { dashed: true }));
  }

  const decadeTick = (v: number) => (isPowerOfTen(v) ? compact(v) : "");
  // Grid lines at decades only: a log axis's minor lines would hide the roofs.
  const decadeGrid = { color: (context: { tick?: { value: number } }) => (context.tick && isPowerOfTen(context.tick.value) ? grid : "transparent") };
  return new Chart(canvas, {
    type: "scatter",
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: {
          type: "logarithmic",
          min: model.x.min,
          max: model.x.max,
          title: { display: true, text: "arithmetic intensity (FLOP per byte, log scale)" },
          ticks: { maxRotation: 0, autoSkip: false, callback: decadeTick },
          grid: decadeGrid,
        },
        y: {
          type: "logarithmic",
          min: model.y.min,
          max: model.y.max,
          title: { display: true, text: "GFLOP/s (log scale)" },
          ticks: { autoSkip: false, callback: decadeTick },
          grid: decadeGrid,
        },
      },
      plugins: {
        legend: { position: "bottom", labels: { usePointStyle: true, boxHeight: 6 } },
        tooltip: {
          filter: (item: { datasetIndex: number }) => item.datasetIndex >= 2,
          callbacks: {
            label: (item: { dataIndex: number; datasetIndex: number; parsed: { x: number; y: number } }) => {
              const p = model.points[item.dataIndex];
              const at = `${item.parsed.x.toPrecision(3)} FLOP/byte, ${flopRate(item.parsed.y)}`;
              return item.datasetIndex === 2 && p ? `n = ${formatSize(p.size)}: ${at}` : at;
            },
          },
        },
      },
    },
  });
}

export function bandwidth(gbps: number): string {
  return gbps >= 1000 ? `${(gbps / 1000).toFixed(2)} TB/s` : `${gbps.toPrecision(3)} GB/s`;
}

export function flopRate(gflops: number): string {
  return gflops >= 1000 ? `${(gflops / 1000).toFixed(2)} TFLOP/s` : `${gflops.toPrecision(3)} GFLOP/s`;
}

/** A decade as a tick: 0.01 … 1000 written out, 1e4 and beyond (or below) as powers of ten. */
function compact(v: number): string {
  const e = Math.round(Math.log10(v));
  return e >= -2 && e <= 3 ? String(10 ** e).replace(/(\.\d*?)0{5,}\d*$/, "$1") : `1e${e}`;
}

function isPowerOfTen(v: number): boolean {
  const l = Math.log10(v);
  return Math.abs(l - Math.round(l)) < 1e-9;
}
