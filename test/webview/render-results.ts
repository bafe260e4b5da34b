// Draws the results panel in headless Chromium, outside VS Code: the page the extension builds
// (same HTML, CSP, media/ files), a stand-in for the webview API, dark-theme variables, and the
// sample reports. Asserts what a user would read, and saves screenshots to test-results/webview/.
//
//   node scripts/build.mjs && npx tsx --test test/webview/render-results.ts

import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { LIGHT_THEME, openPanel as openPage, out, postRaw, send, waitFor } from "./panel-page";
import {
  autotuned, autotunedKnobs, autotunedSweep, bytesOnlyRun, bytesOnlySweep, coarseTimestamps, launchBoundRun, rooflineRun, rooflineSweep, runWithHistory, singleRun, sweep, uncountedRun, withPrints, wrongQuadrant,
} from "./sample-reports";

const root = path.resolve(__dirname, "..", "..");
/** KERNEL_LAB_DOCS=1 also writes the docs/ screenshots these tests make (docs/screenshot-roofline.png). */
const docs = process.env.KERNEL_LAB_DOCS === "1";

const openPanel = (theme?: { variables: Record<string, string>; bodyClass: string }) => openPage({ pageName: "results.html", height: 1400, theme });

test("the adapter's note (the Dawn toggles a file with f16 asked for) shows under its line", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    const note = "Kernel Lab asked Dawn for vulkan_enable_f16_on_nvidia and allow_unsafe_apis: this file's kernels use f16";
    await send(page, received, { type: "results", view: { ...singleRun, adapter: { ...singleRun.adapter!, note } } });
    assert.equal(await page.textContent("[data-testid=adapter-note]"), note);
    await send(page, received, { type: "results", view: singleRun });
    assert.equal(await page.$("[data-testid=adapter-note]"), null);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a single run shows the adapter, correctness, timing and WGSL", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    const rendered = await send(page, received, { type: "results", view: singleRun });
    assert.deepEqual(rendered, { type: "rendered", messageType: "results", runs: 1, verdicts: ["match"], chart: false });
    assert.match(await page.textContent("[data-testid=adapter]") ?? "", /llvmpipe/);
    assert.match(await page.textContent("[data-testid=verdict]") ?? "", /✓ The run matches/);
    const correctness = await page.textContent("[data-testid=correctness]");
    assert.match(correctness ?? "", /Max abs diff\s*0/);
    const timing = await page.textContent("[data-testid=timing]");
    assert.match(timing ?? "", /Median\s*0\.0123 ms/);
    assert.match(timing ?? "", /96\.0 GB\/s|96 GB\/s/);
    assert.match(timing ?? "", /builtins\.add/);
    assert.match(timing ?? "", /Repetitions\s*100 samples of 16 launches each/);
    assert.match(await page.textContent("section.wgsl pre") ?? "", /@compute @workgroup_size/);
    await page.screenshot({ path: path.join(out, "single-run.png"), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a browser's coarsened GPU timestamps are said under the timing", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    await send(page, received, { type: "results", view: coarseTimestamps });
    assert.match(await page.textContent("[data-testid=adapter]") ?? "", /swiftshader/);
    assert.match(await page.textContent("[data-testid=timing]") ?? "", /Timestamp steps\s*0\.1(00)? ms \(coarsened by the browser\)/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a mismatch says who stored it, links to the store and draws the wrong quadrant as a heatmap", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    await send(page, received, { type: "results", view: wrongQuadrant });
    assert.equal(await page.textContent("[data-testid=mismatch-line]"), "out_ptr[2080] = 1.51685, expected 0.51685 — written by program (2,2,0), lane 0, at line 63");
    const cells = await page.$$eval("[data-testid=mismatch-map] td", (tds) => tds.map((td) => td.className));
    assert.equal(cells.length, 32 * 32);
    assert.equal(cells[0], "heat heat-0");
    assert.equal(cells[31 * 32 + 31], "heat heat-5");
    assert.equal(cells.filter((c) => c !== "heat heat-0").length, 16 * 16);
    assert.match(await page.textContent("[data-testid=mismatch-map] figcaption") ?? "", /out_ptr \[64 × 64\]: 1,?008 wrong elements, in cells of 2 × 2/);
    await page.click("[data-testid=reveal-store]");
    await waitFor(() => received.some((m) => (m as { type?: string }).type === "reveal"));
    assert.deepEqual(received.find((m) => (m as { type?: string }).type === "reveal"), { type: "reveal", line: 63, column: 3 });
    await page.locator("section.run").first().screenshot({ path: path.join(out, "mismatch-heatmap.png") });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a run with a history says what changed since the last run and lists the earlier ones", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    await send(page, received, { type: "results", view: runWithHistory });
    assert.equal(await page.textContent("[data-testid=history-change]"), "1.80× faster than the last run (14:02)");
    const rows = await page.$$eval("[data-testid=history] tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
    assert.equal(rows.length, 2);
    assert.match(rows[0], /0\.0221 ms/); // newest first
    assert.match(rows[1], /0\.0301 ms.*✗/);
    await page.locator("[data-testid=history]").screenshot({ path: path.join(out, "history.png") });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("an autotuned run lists every candidate and highlights the picked one", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    const rendered = await send(page, received, { type: "results", view: autotuned });
    assert.deepEqual(rendered, { type: "rendered", messageType: "results", runs: 1, verdicts: ["match"], chart: false });
    const rows = page.locator("[data-testid=autotune] tbody tr");
    assert.equal(await rows.count(), 5);
    const picked = page.locator("[data-testid=autotune] tbody tr.picked");
    assert.equal(await picked.count(), 1);
    assert.match((await picked.textContent()) ?? "", /^6464161\.2\d* ms[\d.]+\s*✓picked$/);
    assert.match(await page.textContent("[data-testid=autotune] caption") ?? "", /5 configs · picked BLOCK_M = 64, BLOCK_N = 64, BLOCK_K = 16/);
    assert.match(await rows.nth(3).textContent() ?? "", /✗.*does not match the reference/);
    assert.match(await rows.nth(4).textContent() ?? "", /✗.*does not compile/);
    // The highlight is a theme colour, not the page's background.
    const [row, body] = await page.evaluate(`[getComputedStyle(document.querySelector("tr.picked td")).backgroundColor, getComputedStyle(document.body).backgroundColor]`) as string[];
    assert.notEqual(row, body);
    assert.notEqual(row, "rgba(0, 0, 0, 0)");
    await page.screenshot({ path: path.join(out, "autotune.png"), fullPage: true });

    // A sweep names each size's pick.
    await send(page, received, { type: "results", view: autotunedSweep });
    const cells = await page.locator("[data-testid=sweep-table] td.picked-config").allTextContents();
    assert.deepEqual(cells, ["BLOCK_M=32, BLOCK_N=32, BLOCK_K=16 (cached)", "BLOCK_M=64, BLOCK_N=64, BLOCK_K=16"]);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("an autotuned run with the code generator's knobs shows each candidate's knobs and names the pick with them", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    await send(page, received, { type: "results", view: autotunedKnobs });
    const heads = await page.locator("[data-testid=autotune] thead th").allTextContents();
    assert.deepEqual(heads.slice(0, 3), ["BLOCK_M", "BLOCK_N", "halfLoadForm"]);
    const picked = page.locator("[data-testid=autotune] tbody tr.picked");
    assert.equal(await picked.count(), 1, "one row: the config and the knobs picked");
    assert.match((await picked.textContent()) ?? "", /^6464select1\.2\d* ms/);
    assert.match(await page.textContent("[data-testid=autotune] caption") ?? "", /3 candidates · picked BLOCK_M = 64, BLOCK_N = 64, halfLoadForm = select · 1 more gave the same WGSL as another/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a run that prints lists its lines, collapsed and capped", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    await send(page, received, { type: "results", view: withPrints });
    const list = page.locator("[data-testid=prints]");
    assert.equal(await list.getAttribute("open"), null);
    assert.match((await list.locator("summary").textContent()) ?? "", /tl\.devicePrint · 250 lines \(3 more did not fit/);
    await list.locator("summary").click();
    const lines = ((await list.locator("pre").textContent()) ?? "").split("\n");
    assert.equal(lines.length, 200);
    assert.equal(lines[0], "pid (0, 0, 0) idx (0) x: 0");
    assert.match((await list.locator("p").textContent()) ?? "", /53 more lines not shown/);
    await page.screenshot({ path: path.join(out, "prints.png"), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a sweep draws the throughput plot with the kernel and its baseline", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    const rendered = await send(page, received, { type: "results", view: sweep });
    assert.equal(rendered.chart, true);
    assert.deepEqual(rendered.verdicts, ["match", "match", "match", "match", "mismatch"]);
    assert.equal(await page.locator("[data-testid=sweep-table] tbody tr").count(), 5);
    const canvasHasInk = await page.evaluate(`(() => {
      const canvas = document.querySelector("canvas");
      if (!canvas) return false;
      const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
      return false;
    })()`);
    assert.ok(canvasHasInk, "the chart canvas is blank");
    await page.screenshot({ path: path.join(out, "sweep.png"), fullPage: true });

    await send(page, received, { type: "running", title: "Sweeping vectorAdd (vector-add.kernel.ts)", detail: "on the GPU" });
    assert.match(await page.textContent(".banner") ?? "", /Sweeping vectorAdd/);
    await send(page, received, { type: "failed", title: "vectorAdd timed out", message: "The run did not finish within 1 s (kernelLab.timeoutSeconds), so its process was stopped." });
    await page.screenshot({ path: path.join(out, "timed-out.png") });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("the panel follows a light theme", async () => {
  const { page, received, errors, close } = await openPanel({ variables: LIGHT_THEME, bodyClass: "vscode-light" });
  try {
    const rendered = await send(page, received, { type: "results", view: sweep });
    assert.equal(rendered.chart, true);
    const background = await page.evaluate(`getComputedStyle(document.body).backgroundColor`);
    assert.equal(background, "rgb(255, 255, 255)");
    await page.screenshot({ path: path.join(out, "sweep-light.png"), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("a malformed message is refused, not drawn", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    await postRaw(page, { type: "results", view: { file: 3 } });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(received.filter((m) => (m as { type?: string }).type === "rendered").length, 0);
    assert.ok(errors.some((e) => /malformed/.test(e)));
  } finally {
    await close();
  }
});

/** What Chart.js drew on the n-th canvas: its axes' types and ranges, its datasets, and pixels of chosen points. */
async function chartOf(page: Page, n: number): Promise<{ type: string; x: string; y: string; labels: string[]; pixel: (dataset: number, index: number) => Promise<{ x: number; y: number }>; yPixelAt: (value: number) => Promise<number> }> {
  const info = (await page.evaluate(`(() => {
    const chart = Chart.getChart(document.querySelectorAll("canvas")[${n}]);
    return { type: chart.config.type, x: chart.scales.x.type, y: chart.scales.y.type, labels: chart.data.datasets.map((d) => d.label) };
  })()`)) as { type: string; x: string; y: string; labels: string[] };
  return {
    ...info,
    pixel: async (dataset, index) =>
      (await page.evaluate(`(() => { const e = Chart.getChart(document.querySelectorAll("canvas")[${n}]).getDatasetMeta(${dataset}).data[${index}]; return { x: e.x, y: e.y }; })()`)) as { x: number; y: number },
    yPixelAt: async (value) => (await page.evaluate(`Chart.getChart(document.querySelectorAll("canvas")[${n}]).scales.y.getPixelForValue(${value})`)) as number,
  };
}

test("speed of light: a sweep with bytes and flops is a line of points under the roofs, each size with its verdict", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    const rendered = await send(page, received, { type: "results", view: rooflineSweep });
    assert.equal(rendered.rooflines, 1);
    assert.deepEqual(rendered.speedOfLight, ["memory-bound", "memory-bound", "compute-bound", "compute-bound", "compute-bound"]);
    const section = page.locator("[data-testid=speed-of-light]");
    assert.equal(await section.getAttribute("data-verdict"), "compute-bound");
    assert.match((await section.locator("h3").textContent()) ?? "", /Speed of light \(n = 257\)/);
    assert.match((await page.textContent("[data-testid=sol-verdict]")) ?? "", /^compute-bound 3\.86 GFLOP\/s is 17% of this GPU's measured f32 FMA rate/);
    assert.match((await page.textContent("[data-testid=sol-fractions]")) ?? "", /Memory\s*3% of 3\.50 GB\/s.*Compute\s*17% of 23\.3 GFLOP\/s/);
    const cells = await page.locator("[data-testid=sweep-table] td.sol-cell").allTextContents();
    assert.deepEqual(cells, ["memory-bound · 0%", "memory-bound · 2%", "compute-bound · 8%", "compute-bound · 20%", "compute-bound · 17%"]);

    // The roofline is the section's canvas (the sweep chart comes after it in the page's order of drawing).
    const canvases = await page.locator("canvas").count();
    assert.equal(canvases, 2);
    const roofIndex = (await page.evaluate(`[...document.querySelectorAll("canvas")].findIndex((c) => c.closest("[data-testid=roofline]"))`)) as number;
    const chart = await chartOf(page, roofIndex);
    assert.deepEqual([chart.type, chart.x, chart.y], ["scatter", "logarithmic", "logarithmic"]);
    assert.match(chart.labels[0], /^memory roof: 3\.50 GB\/s$/);
    assert.match(chart.labels[1], /^compute roof: 23\.3 GFLOP\/s \(f32 FMA\)$/);
    assert.match(chart.labels[2], /^matmul, sizes 1 … 257$/);
    // Every point lies under the compute roof (smaller y pixel = higher on the canvas).
    const roof = await chart.yPixelAt(23.346095107290882);
    for (let i = 0; i < 5; i++) assert.ok((await chart.pixel(2, i)).y > roof, `point ${i} is under the compute roof`);
    // Its size-127 point sits at its intensity: gflops / gbps FLOP per byte.
    const x127 = (await page.evaluate(`Chart.getChart(document.querySelectorAll("canvas")[${roofIndex}]).scales.x.getPixelForValue(${4.73674 / 0.223218})`)) as number;
    assert.ok(Math.abs((await chart.pixel(2, 3)).x - x127) < 1);
    await page.locator("section.run").first().screenshot({ path: path.join(out, "roofline-sweep.png") });
    if (docs) await page.locator("section.run").first().screenshot({ path: path.join(root, "docs/screenshot-roofline.png") });

    // One run: one point.
    const one = await send(page, received, { type: "results", view: rooflineRun });
    assert.equal(one.rooflines, 1);
    const single = await chartOf(page, 0);
    assert.equal(single.labels[2], "matmul (n = 127)");
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("speed of light: a run with only bytes is the line of its bandwidth; with neither count it is told what to add", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    const bytesOnly = await send(page, received, { type: "results", view: bytesOnlyRun });
    assert.equal(bytesOnly.rooflines, 1);
    const chart = await chartOf(page, 0);
    assert.match(chart.labels[2], /^vectorAdd \(n = 2\^20\): 5\.47 GB\/s, somewhere on this line \(add flops to place it\)$/);
    assert.match((await page.textContent("[data-testid=sol-missing]")) ?? "", /declares bytes but no flops.*Add flops: \(n\) => …/);
    assert.match((await page.textContent("[data-testid=sol-verdict]")) ?? "", /^memory-bound 5\.47 GB\/s is 156% of this GPU's measured 3\.50 GB\/s \(above it: the data fits in the GPU's caches\)/);
    await page.locator("section.run").first().screenshot({ path: path.join(out, "roofline-bytes-only.png") });

    const launchBound = await send(page, received, { type: "results", view: launchBoundRun });
    assert.deepEqual(launchBound.speedOfLight, ["launch-bound"]);
    assert.match((await page.textContent("[data-testid=sol-verdict]")) ?? "", /^launch-bound The kernel's 2\.80 µs is within 2× of one launch/);

    const uncounted = await send(page, received, { type: "results", view: uncountedRun });
    assert.deepEqual([uncounted.rooflines, uncounted.speedOfLight], [0, ["unknown"]]);
    assert.equal(await page.locator("[data-testid=roofline]").count(), 0);
    assert.equal((await page.textContent("[data-testid=sol-verdict]"))?.trim(), "unknown");
    assert.match((await page.textContent("[data-testid=sol-missing]")) ?? "", /add bytes: \(n\) => … \(the bytes a launch reads and writes\) and flops: \(n\) => …/);

    // A sweep with only bytes: no pile of parallel lines; the sweep chart carries the measured bandwidth.
    const swept = await send(page, received, { type: "results", view: bytesOnlySweep });
    assert.deepEqual([swept.rooflines, swept.chart], [0, true]);
    const sweepChart = await chartOf(page, 0);
    assert.ok(sweepChart.labels.includes("this GPU's measured bandwidth (copy)"), JSON.stringify(sweepChart.labels));
    assert.match((await page.textContent("[data-testid=sol-missing]")) ?? "", /declares bytes but no flops/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
