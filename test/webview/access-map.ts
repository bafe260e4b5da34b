// The access map in the results panel, in headless Chromium under the panel's own CSP: maps the
// harness computes for real launches (the matmul example, vector add's masked tail block), drawn,
// then the program moved with the slider and the grid, and a layer hidden. Reads the canvases'
// pixels and their counts. Saves screenshots to test-results/webview/ (KERNEL_LAB_DOCS=1: docs/).
//
//   node scripts/build.mjs && npx tsx --test test/webview/access-map.ts

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { openPanel as openPage, out, send } from "./panel-page";
import type { ResultsView } from "../../src/editor/webview-protocol";
import { programAccessMaps, type LaunchToTrace } from "../../src/harness/debug/analyse-launch";
import type { RunReport } from "../../src/harness/report";
import { singleRun } from "./sample-reports";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { exerciseFile, exerciseNamed } from "../../src/exercises/course";
import { runFile } from "../../src/harness/run/run";
import { launchOf } from "../support/launch-to-trace";

const root = path.resolve(__dirname, "..", "..");
const docs = process.env.KERNEL_LAB_DOCS === "1";

/** A view of one run whose report carries the maps of `launch`. */
function viewWithMaps(name: string, kernel: string, launch: LaunchToTrace, size: number, constexprs: Record<string, number>): ResultsView {
  const accessMaps = programAccessMaps(launch)!;
  const run: RunReport = { ...singleRun.runs[0], name, kernel, size, constexprs, grid: [...launch.grid] as [number, number, number], accessMaps };
  return { ...singleRun, file: `examples/${name}.kernel.ts`, runs: [run], wgsl: [] };
}

function vectorAddTail(): ResultsView {
  const n = 3000;
  const launch = launchOf("examples/vector-add.kernel.ts", "add_kernel", { BLOCK_SIZE: 1024 }, [3, 1, 1], { x_ptr: new Float32Array(n), y_ptr: new Float32Array(n), output_ptr: new Float32Array(n), n_elements: n });
  return viewWithMaps("vectorAdd", "add_kernel", launch, n, { BLOCK_SIZE: 1024 });
}

function matmul(): ResultsView {
  const [M, N, K] = [64, 63, 66];
  const args = {
    a_ptr: new Float32Array(M * K), b_ptr: new Float32Array(K * N), c_ptr: new Float32Array(M * N),
    M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
  };
  const launch = launchOf("examples/matmul.kernel.ts", "matmul_kernel", { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }, [4, 1, 1], args, new Map([["a_ptr", [M, K]], ["b_ptr", [K, N]], ["c_ptr", [M, N]]]));
  return viewWithMaps("matmul", "matmul_kernel", launch, M, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 });
}

const openPanel = () => openPage({ pageName: "access-map.html", height: 1200, ignore: (text) => text.startsWith("Canvas2D: Multiple readback") });

/** The counts a buffer's canvas says it drew. */
async function counts(page: Page, param: string): Promise<{ touched: number; masked: number }> {
  const canvas = page.locator(`[data-testid=access-map-buffer][data-param=${param}]`);
  return { touched: Number(await canvas.getAttribute("data-touched")), masked: Number(await canvas.getAttribute("data-masked")) };
}

/** The RGBA of a canvas pixel: the centre of cell (row, col) of a 1-D buffer, or its left edge (a hollow cell's outline). */
async function pixelOf(page: Page, param: string, row: number, col: number, at: "centre" | "edge"): Promise<number[]> {
  return (await page.evaluate(`(() => {
    const canvas = document.querySelector('[data-testid=access-map-buffer][data-param=${param}]');
    // Cells are square; a 1-D buffer is drawn in rows of 64.
    const px = canvas.width / 64;
    const x = Math.floor(${col} * px + (${JSON.stringify(at)} === "centre" ? px / 2 : 0.5));
    const y = Math.floor(${row} * px + px / 2);
    return [...canvas.getContext("2d").getImageData(x, y, 1, 1).data];
  })()`)) as number[];
}


test("vector add's masked tail block: program 2 touches 952 elements and its 72 masked-off lanes are drawn hollow past the end", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    const rendered = await send(page, received, { type: "results", view: vectorAddTail() });
    assert.equal(rendered.accessMaps, 1);
    const section = page.locator("[data-testid=access-map]");
    assert.equal(await section.getAttribute("data-program"), "0,0,0");
    assert.deepEqual(await counts(page, "x_ptr"), { touched: 1024, masked: 0 });
    // Loads of x are blue (the theme's charts-blue), the stores of output orange.
    assert.deepEqual((await pixelOf(page, "x_ptr", 0, 0, "centre")).slice(0, 3), [0x37, 0x94, 0xff]);
    assert.deepEqual((await pixelOf(page, "output_ptr", 0, 0, "centre")).slice(0, 3), [0xd1, 0x86, 0x16]);

    await page.locator("[data-testid=access-map-slider]").fill("2");
    assert.equal(await section.getAttribute("data-program"), "2,0,0");
    assert.match((await page.textContent("[data-testid=access-map-program]")) ?? "", /\(2, 0, 0\) · 3 of 3/);
    assert.deepEqual(await counts(page, "x_ptr"), { touched: 952, masked: 72 });
    // Element 2048 (row 32, column 0) is loaded; element 3000 (row 46, column 56) is past the end:
    // a hollow cell, its outline blue, its middle transparent.
    assert.deepEqual((await pixelOf(page, "x_ptr", 32, 0, "centre")).slice(0, 3), [0x37, 0x94, 0xff]);
    assert.deepEqual((await pixelOf(page, "x_ptr", 46, 56, "edge")).slice(0, 3), [0x37, 0x94, 0xff]);
    assert.equal((await pixelOf(page, "x_ptr", 46, 56, "centre"))[3], 0);
    assert.match((await page.textContent("[data-testid=access-map-legend]")) ?? "", /load x_ptr · line \d+ · 952 of 1024 lanes active \(72 masked off\)/);
    await section.screenshot({ path: path.join(out, "access-map-tail.png") });
    if (docs) await section.screenshot({ path: path.join(root, "docs/screenshot-access-map-tail.png") });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("the matmul example: program 1's A and B tiles on their shapes, another program by clicking the grid, a layer hidden by its checkbox", async () => {
  const { page, received, errors, close } = await openPanel();
  try {
    await send(page, received, { type: "results", view: matmul() });
    await page.locator("[data-testid=access-map-slider]").fill("1");
    assert.equal(await page.locator("[data-testid=access-map]").getAttribute("data-program"), "1,0,0");
    // The last trip over K masks lanes at k ≥ 66: in A, row 63's point past the end (the other
    // rows' land on the next row, which active lanes touch); in B, 14 rows past the end.
    assert.deepEqual(await counts(page, "a_ptr"), { touched: 32 * 66, masked: 14 });
    assert.deepEqual(await counts(page, "b_ptr"), { touched: 66 * 32, masked: 14 * 32 });
    assert.match((await page.textContent(".am-buffers")) ?? "", /a_ptr \[64 × 66\]: 2112 touched/);
    const shot = page.locator("[data-testid=access-map]");
    await shot.screenshot({ path: path.join(out, "access-map-matmul.png") });
    if (docs) await shot.screenshot({ path: path.join(root, "docs/screenshot-access-map-matmul.png") });

    // The grid is 4 programs in a row: the third cell is program 2 (tile row 0, column 1).
    const box = (await page.locator("[data-testid=access-map-grid]").boundingBox())!;
    await page.mouse.click(box.x + (2.5 * box.width) / 4, box.y + box.height / 2);
    assert.equal(await page.locator("[data-testid=access-map]").getAttribute("data-program"), "2,0,0");
    assert.deepEqual((await counts(page, "b_ptr")).touched, 66 * 31);

    // Hiding the load of A empties A's drawing; the store of C stays.
    await page.locator("[data-testid=access-map-legend] li", { hasText: "load a_ptr" }).locator("input").uncheck();
    assert.deepEqual(await counts(page, "a_ptr"), { touched: 0, masked: 0 });
    // Column 63 of C is masked off (N = 63): those lanes point at the next row's column 0, another program's.
    assert.deepEqual(await counts(page, "c_ptr"), { touched: 32 * 31, masked: 32 });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("puzzle 4 (outer vector add): a program's x, y and z tiles, and a learner's mask one column short drawn beside the solution's at program (3,0,0)", async () => {
  const puzzle = exerciseNamed("puzzle-04")!;
  const file = path.join(mkdtempSync(path.join(tmpdir(), "kl-access-map-")), puzzle.file);
  writeFileSync(file, exerciseFile({ ...puzzle, stub: puzzle.solution.replace("off_x < N0)", "off_x < N0 - 1)") }));
  const report = await runFile(file, { cpu: true, accessMaps: true });
  const view: ResultsView = { ...singleRun, file: `exercises/${puzzle.file}`, backend: "cpu", outcome: "mismatch", runs: report.runs, wgsl: [] };
  const { page, received, errors, close } = await openPanel();
  try {
    const rendered = await send(page, received, { type: "results", view });
    assert.equal(rendered.accessMaps, 1);
    assert.match((await page.textContent("[data-testid=exercise-access-line]")) ?? "", /program \(3,0,0\) is the first whose differ from the solution's: your loads of x_ptr read 3 elements, the solution's 4/);
    const yours = page.locator("[data-testid=exercise-access-yours] [data-testid=access-map-buffer][data-param=x_ptr]");
    const solution = page.locator("[data-testid=exercise-access-solution] [data-testid=access-map-buffer][data-param=x_ptr]");
    assert.deepEqual([await yours.getAttribute("data-touched"), await solution.getAttribute("data-touched")], ["3", "4"]);
    await page.locator("[data-testid=exercise-access]").screenshot({ path: path.join(out, "access-map-exercise.png") });

    // The run's own map: program (1,1,0) loads x[32..63] and y[32..63] and stores its 32 × 32 tile of z.
    const map = page.locator("[data-testid=access-map]");
    await map.locator("[data-testid=access-map-slider]").fill("5");
    assert.equal(await map.getAttribute("data-program"), "1,1,0");
    assert.equal(await map.locator("[data-testid=access-map-buffer][data-param=z_ptr]").getAttribute("data-touched"), String(32 * 32));
    await map.screenshot({ path: path.join(out, "access-map-puzzle-04.png") });
    if (docs) await map.screenshot({ path: path.join(root, "docs/screenshot-access-map-puzzle-04.png") });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
