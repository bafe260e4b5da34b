// A Python file's run in the results panel, in headless Chromium under the panel's own CSP: the
// verdict naming the exception and its line, the traceback (a click reveals the line), the checks
// with their largest difference, the launches, the printed lines, and the perf_report plot drawn
// on a canvas. Saves screenshots to test-results/webview/.
//
//   node scripts/build.mjs && npx tsx --test test/webview/python-results.ts

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { resultsHtml } from "../../src/editor/results-html";
import type { PythonResultsView, ToWebview } from "../../src/editor/webview-protocol";

const root = path.resolve(__dirname, "..", "..");
const out = path.join(root, "test-results", "webview");

const traceback = `Traceback (most recent call last):
  File "tutorial.py", line 42, in <module>
    torch.testing.assert_close(output_triton, output_torch)
AssertionError: Tensor-likes are not close!

Mismatched elements: 5003 / 5003 (100.0%)
`;

const raised: PythonResultsView = {
  file: "tutorial.py",
  backend: "gpu",
  outcome: "raised",
  finishedAt: "2026-12-04T21:00:00.000Z",
  adapter: { vendor: "mesa", device: "llvmpipe", backend: "vulkan", description: "" },
  diagnostics: [{ line: 42, column: 1, severity: "error", code: "KL3124", message: "AssertionError: Tensor-likes are not close!" }],
  launches: [
    { kernel: "add_kernel", grid: [20, 1, 1], constexprs: { BLOCK_SIZE: 256 }, ms: 12.5, line: 28 },
    { kernel: "add_kernel", grid: [4, 1, 1], constexprs: { BLOCK_SIZE: 256 }, ms: 3.25, line: 28 },
  ],
  launchesNotListed: 7,
  checks: [{ line: 42, kind: "assert_close", passed: false, maxAbsDiff: 1.0000001 }],
  stdout: "tensor([1.4047, 0.4547])\ntensor([2.4047, 1.4547])\nThe maximum difference between torch and triton is 1.0\n",
  plots: [{ title: "vector-add-performance", columns: ["size", "Triton", "Torch"], rows: [[1024, 0.19, 0.04], [2048, 0.28, 0.08], [4096, 0.5, 0.1]], xlabel: "size", ylabel: "GB/s", xLog: true, yLog: false }],
  traceback,
  raised: "AssertionError: Tensor-likes are not close!",
  bench: "benchmarks: quick (the default on a software adapter)",
  python: "Python started in 4.2 s",
};

test("a Python run: the exception and its line, the traceback, checks, launches, output and the perf_report plot", async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 1600 } });
    const received: { type?: string; [key: string]: unknown }[] = [];
    const errors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.exposeFunction("__toExtension", (m: { type?: string }) => received.push(m));
    await page.addInitScript(`window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__toExtension(m), getState: () => undefined, setState: () => {} });`);
    mkdirSync(out, { recursive: true });
    const pagePath = path.join(out, "python-results.html");
    writeFileSync(pagePath, resultsHtml({ cspSource: "file:", nonce: "dGVzdC1ub25jZQ==", mediaUri: (name) => pathToFileURL(path.join(root, "media", name)).toString() }));
    await page.goto(pathToFileURL(pagePath).toString());
    const until = async (what: (m: { type?: string }) => boolean) => {
      for (let i = 0; i < 500 && !received.some(what); i++) await page.waitForTimeout(20);
      return received.find(what);
    };
    assert.ok(await until((m) => m.type === "ready"), `the page did not load: ${errors.join(" | ")}`);
    await page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(m, "*"), { type: "python-results", view: raised } satisfies ToWebview);
    const rendered = await until((m) => m.type === "rendered");
    assert.deepEqual(rendered, { type: "rendered", messageType: "python-results", runs: 0, verdicts: [], chart: true, python: { launches: 2, printedLines: 3, plots: 1, traceback: true } });

    assert.equal(await page.textContent("[data-testid=verdict]"), "✗ The script raised AssertionError: Tensor-likes are not close! at line 42");
    assert.match((await page.textContent("[data-testid=traceback]")) ?? "", /File "tutorial.py", line 42, in <module>/);
    assert.match((await page.textContent("[data-testid=checks]")) ?? "", /42\s*torch\.testing\.assert_close\s*✗\s*1\b/);
    const launches = await page.locator("[data-testid=launches] tbody tr").allTextContents();
    assert.equal(launches.length, 2);
    assert.match(launches[0], /28\s*add_kernel\s*20 × 1 × 1\s*BLOCK_SIZE=256\s*12\.5 ms/);
    assert.match((await page.textContent("section.launches h2")) ?? "", /Launches · 9 \(and 7 more not listed\)/);
    assert.match((await page.textContent("[data-testid=stdout]")) ?? "", /The maximum difference between torch and triton is 1\.0/);
    // Chart.js drew the two lines: the canvas has pixels of both line colours' hue.
    const inked = await page.locator("[data-testid=plot] canvas").evaluate((c) => {
      const canvas = c as unknown as { width: number; height: number; getContext(k: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
      const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
      let blue = 0;
      let orange = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 2] > 200 && data[i] < 120) blue++;
        if (data[i] > 180 && data[i + 1] > 100 && data[i + 1] < 160 && data[i + 2] < 60) orange++;
      }
      return { blue, orange };
    });
    assert.ok(inked.blue > 50 && inked.orange > 50, `the plot's lines: ${JSON.stringify(inked)}`);
    await page.screenshot({ path: path.join(out, "python-results.png"), fullPage: true });

    // A click on the traceback asks the editor to reveal the line it marked.
    await page.click("[data-testid=traceback]");
    assert.deepEqual(await until((m) => m.type === "reveal"), { type: "reveal", line: 42, column: 1 });
    // A report with a field of the wrong kind is refused, not drawn.
    const before = received.length;
    await page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(m, "*"), { type: "python-results", view: { ...raised, launches: "many" } });
    await page.waitForTimeout(300);
    assert.equal(received.slice(before).filter((m) => m.type === "rendered").length, 0);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
