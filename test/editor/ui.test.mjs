// The UI as a person uses it, in Chromium (Playwright) on code-server: open
// examples/vector-add.kernel.ts, F1 → "Kernel Lab: Run Kernel", read the correctness and timing
// tables out of the results webview, save screenshots to test-results/; then a tutorial-style .py:
// its diagnostic, Run File and its panel (python-checks.mjs).
//   --installed   load the extension installed from the .vsix (.vscode-test/installed-extensions/,
//                 see vsix.test.mjs) instead of the working tree
//   --docs        also make docs/screenshot-*.png: a sweep with its plot, an inline diagnostic, and
//                 softmax's inlay hints with a hover over tl.max
// Prints one line per check and `N passed, N failed`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./code-server.mjs";
import { workbenchTest } from "./workbench-test.mjs";
import { pythonChecks } from "./python-checks.mjs";

const { docs, page, shoot, finish, check, start, palette, openFile } = workbenchTest({ title: "UI test", prefix: "ui", timeLimitS: 300 });

// ---------------------------------------------------------------------------- the workbench

/** The results panel's page, inside the webview's two frames. */
const resultsFrame = () => page().frameLocator("iframe.webview.ready").frameLocator("#active-frame");

/** Rows of a two-column table in the results page, as { label: value }. */
async function factsTable(testId) {
  const rows = resultsFrame().locator(`[data-testid="${testId}"] tr`);
  const facts = {};
  for (let i = 0; i < (await rows.count()); i++) {
    const label = (await rows.nth(i).locator("th").textContent())?.trim();
    const value = (await rows.nth(i).locator("td").textContent())?.trim();
    if (label) facts[label] = value;
  }
  return facts;
}

async function waitForVerdict(timeoutMs) {
  const verdict = resultsFrame().locator('[data-testid="verdict"]').first();
  await verdict.waitFor({ state: "visible", timeout: timeoutMs });
  // A running banner keeps the previous results dimmed under it: wait until the banner is gone.
  await resultsFrame().locator(".banner.running").waitFor({ state: "detached", timeout: timeoutMs });
  return (await verdict.textContent())?.trim();
}

// ---------------------------------------------------------------------------------- the test

try {
  await check("code-server and the workbench start", () =>
    start({
      // Dark pictures for docs/, to show the panel following the theme (an Extension Development
      // Host window ignores the user's colour theme, so docs are best made with --installed).
      // Hovers below their line, so the one over tl.max leaves the inlay hints above it in sight.
      settings: docs ? { "workbench.colorTheme": "Default Dark Modern", "editor.minimap.enabled": false, "editor.hover.above": false } : {},
      viewport: docs ? { width: 1920, height: 1080 } : { width: 1600, height: 1000 },
    }),
  );

  await check("opens examples/vector-add.kernel.ts", () => openFile("examples/vector-add.kernel.ts"));

  await check('F1 → "Kernel Lab: Run Kernel" shows a matching, timed run in the results panel', async () => {
    await palette("Kernel Lab: Run Kernel");
    const verdict = await waitForVerdict(120_000);
    const correctness = await factsTable("correctness");
    const timing = await factsTable("timing");
    const adapter = (await resultsFrame().locator('[data-testid="adapter"]').innerText())?.replace(/\s+/g, " ").trim();
    if (!/^✓/.test(verdict ?? "")) throw new Error(`verdict: ${verdict}`);
    if (!/true/.test(correctness.Match ?? "")) throw new Error(`correctness table: ${JSON.stringify(correctness)}`);
    if (!/\d.*(ms|µs|us|s)\b/.test(timing.Median ?? "")) throw new Error(`timing table: ${JSON.stringify(timing)}`);
    await shoot("ui-run.png", docs ? join(repoRoot, "docs/screenshot-run.png") : undefined);
    return `${adapter} | Match ${correctness.Match}, max abs diff ${correctness["Max abs diff"]} | median ${timing.Median}, ${timing.Bandwidth ?? ""} ${timing.Speedup ? `speedup ${timing.Speedup}` : ""}`;
  });

  await check("the run's access map: moving the program slider to the last program redraws the map (vector add's masked tail)", async () => {
    const map = resultsFrame().locator('[data-testid="access-map"]').first();
    await map.waitFor({ state: "visible", timeout: 20_000 });
    const x = map.locator('[data-testid="access-map-buffer"][data-param="x_ptr"]');
    const drawn = async () => ({ program: await map.getAttribute("data-program"), touched: await x.getAttribute("data-touched"), pixels: await x.evaluate((c) => c.toDataURL()) });
    const before = await drawn();
    const slider = map.locator('[data-testid="access-map-slider"]');
    await slider.scrollIntoViewIfNeeded();
    await slider.focus();
    await slider.press("End");
    const after = await drawn();
    if (before.program !== "0,0,0" || before.touched !== "1024") throw new Error(`first program: ${JSON.stringify({ ...before, pixels: undefined })}`);
    // 98432 elements in blocks of 1024: the last program, 96, has 128 active lanes.
    if (after.program !== "96,0,0" || after.touched !== "128") throw new Error(`after the slider: ${JSON.stringify({ ...after, pixels: undefined })}`);
    if (after.pixels === before.pixels) throw new Error("the map's pixels did not change");
    await shoot("ui-access-map.png");
    // Back to the kernel's editor: Run Kernel is offered for a kernel file, not for the panel.
    await page().locator(".monaco-editor .view-lines").first().click();
    return `program ${before.program} → ${after.program}, x_ptr touched ${before.touched} → ${after.touched}`;
  });

  await check("a second Run Kernel says, under the run, how it compares with the first (the history)", async () => {
    await palette("Kernel Lab: Run Kernel");
    // The first run's panel says "The first run of this kernel…" in the same place: wait for the second's.
    const wanted = /(faster than|slower than|as fast as) the last run \(\d\d:\d\d\)/;
    const change = resultsFrame().locator('[data-testid="history-change"]', { hasText: wanted }).first();
    await change.waitFor({ state: "visible", timeout: 120_000 });
    await waitForVerdict(120_000);
    const text = (await change.textContent())?.trim() ?? "";
    await resultsFrame().locator('[data-testid="history"]').first().scrollIntoViewIfNeeded();
    await shoot("ui-history.png", docs ? join(repoRoot, "docs/screenshot-history.png") : undefined);
    return text;
  });

  if (docs) {
    await check("docs: a sweep with its plot, next to a kernel with an inline diagnostic", async () => {
      await page().keyboard.press("Control+B"); // the side bar closed: room for the kernel and the panel
      await openFile("examples/leaky-relu.kernel.ts");
      await palette("Kernel Lab: Sweep Kernel");
      await waitForVerdict(120_000);
      await resultsFrame().locator("canvas").first().waitFor({ state: "visible", timeout: 20_000 });
      // A mistake typed into the kernel (not saved): Math.max instead of tl.maximum, then the
      // hover that shows its diagnostic.
      const mistake = "tl.maximum";
      const lines = readFileSync(join(repoRoot, "examples/leaky-relu.kernel.ts"), "utf8").split("\n");
      const line = lines.findIndex((l) => l.includes(mistake));
      if (line < 0) throw new Error(`examples/leaky-relu.kernel.ts no longer has ${mistake}`);
      await page().locator(".monaco-editor .view-lines").first().click();
      await page().keyboard.press("Control+G");
      await page().keyboard.type(`${line + 1}:${lines[line].indexOf(mistake) + 1}`);
      await page().keyboard.press("Enter");
      for (let i = 0; i < mistake.length; i++) await page().keyboard.press("Shift+ArrowRight");
      await page().keyboard.type("Math.max");
      await page().locator(".monaco-editor .squiggly-error").first().waitFor({ state: "attached", timeout: 20_000 });
      await palette("Show or Focus Hover");
      await page().locator(".monaco-hover").filter({ hasText: "KL1004" }).first().waitFor({ state: "visible", timeout: 10_000 });
      await page().waitForTimeout(300);
      await shoot("ui-sweep-diagnostic.png", join(repoRoot, "docs/screenshot-editor.png"));
      await page().keyboard.press("Escape");
      await palette("File: Revert File");
    });

  }

  await check("inlay hints with each binding's shape and a hover over tl.max on the softmax example", async () => {
    await palette("View: Close All Editors");
    await openFile("examples/softmax.kernel.ts");
    await page().locator(".monaco-editor .view-lines", { hasText: "col_offsets: i32[1024]" }).first().waitFor({ timeout: 30_000 });
    const lines = readFileSync(join(repoRoot, "examples/softmax.kernel.ts"), "utf8").split("\n");
    const line = lines.findIndex((l) => l.includes("tl.max("));
    if (line < 0) throw new Error("examples/softmax.kernel.ts no longer calls tl.max");
    await page().locator(".monaco-editor .view-lines").first().click();
    await page().keyboard.press("Control+G");
    await page().keyboard.type(`${line + 1}:${lines[line].indexOf("tl.max(") + 5}`);
    await page().keyboard.press("Enter");
    await palette("Show or Focus Hover");
    // Ours (the shapes here) and TypeScript's (the doc comment) in one hover.
    const hover = page().locator(".monaco-hover").filter({ hasText: "Triton" }).first();
    await hover.waitFor({ state: "visible", timeout: 20_000 });
    // TypeScript's part comes from its server, which on a loaded machine may still be reading the
    // project when the hover is first asked for (the hover then shows ours alone): ask again.
    const doc = page().locator(".monaco-hover").filter({ hasText: "Maximum along" }).first();
    for (let ask = 1; ; ask++) {
      try {
        await doc.waitFor({ state: "visible", timeout: 15_000 });
        break;
      } catch (e) {
        if (ask === 4) throw e;
        await page().keyboard.press("Escape");
        await palette("Show or Focus Hover");
        await hover.waitFor({ state: "visible", timeout: 20_000 });
      }
    }
    await page().waitForTimeout(300);
    await shoot("ui-inlay-hints.png", docs ? join(repoRoot, "docs/screenshot-inlay-hints.png") : undefined);
    await page().keyboard.press("Escape");
    return (await hover.innerText()).replace(/\s+/g, " ").trim();
  });

  // Triton's own Python, on the Node host: the diagnostic, then Run File and its panel.
  await palette("View: Close All Editors");
  await pythonChecks(
    { page, check, shoot, palette },
    { host: "desktop", open: () => openFile("test/python/vector-add.py"), text: readFileSync(join(repoRoot, "test/python/vector-add.py"), "utf8"), runLimitMs: 120_000 },
  );
} catch {
  // Reported by check(); the checks after a failed one depend on it.
}
await finish();
