// The Python checks of the UI tests, the same in both extension hosts (ui.test.mjs on the Node
// host, first-open.test.mjs in the web worker host): a tutorial-style .py (test/python/vector-add.py:
// the DEVICE line, a grid lambda, assert_close, a perf_report) opened in the workbench, a deliberate
// mistake typed into its kernel shows Kernel Lab's diagnostic at the Python line, then Run File →
// the results panel with the launches, the printed lines and the perf_report's plot.

/** The results panel's page, inside the webview's two frames. */
const resultsFrame = (page) => page.frameLocator("iframe.webview.ready").frameLocator("#active-frame");

/**
 * @param {object} t  the workbench test's helpers: page(), check(), shoot(), palette()
 * @param {object} o
 * @param {string} o.host     "desktop" or "web", in the checks' names and screenshots
 * @param {() => Promise<void>} o.open  opens the .py file in an editor
 * @param {string} o.text     the file's text (to find the line of the mistake)
 * @param {number} o.runLimitMs  how long the run may take (Pyodide starts first)
 */
export async function pythonChecks({ page, check, shoot, palette }, { host, open, text, runLimitMs }) {
  await check(`${host}: a tutorial-style .py opens with Kernel Lab's inlay hints and ▶ Run File`, async () => {
    await open();
    await page().locator(".monaco-editor .view-lines", { hasText: "offsets: i32[BLOCK_SIZE]" }).first().waitFor({ timeout: 90_000 });
    await page().locator(".codelens-decoration", { hasText: "Run File" }).first().waitFor({ timeout: 30_000 });
  });

  await check(`${host}: a mistake typed into the kernel gets its diagnostic at the Python line (KL1041)`, async () => {
    // tl.arange over a run-time length: Triton wants a constexpr there.
    const wrong = "BLOCK_SIZE)";
    const lines = text.split("\n");
    const line = lines.findIndex((l) => l.includes("tl.arange(0, BLOCK_SIZE)"));
    if (line < 0) throw new Error("the file no longer calls tl.arange(0, BLOCK_SIZE)");
    await page().locator(".monaco-editor .view-lines").first().click();
    await page().keyboard.press("Control+G");
    await page().keyboard.type(`${line + 1}:${lines[line].indexOf(wrong, lines[line].indexOf("tl.arange")) + 1}`);
    await page().keyboard.press("Enter");
    for (let i = 0; i < "BLOCK_SIZE".length; i++) await page().keyboard.press("Shift+ArrowRight");
    await page().keyboard.type("n_elements");
    await page().locator(".monaco-editor .squiggly-error").first().waitFor({ state: "attached", timeout: 30_000 });
    // Inside the marked word (a hover at its end may leave the marker out), then the hover, until it has the diagnostic.
    await page().keyboard.press("ArrowLeft");
    await page().keyboard.press("ArrowLeft");
    const hover = page().locator(".monaco-hover").filter({ hasText: "KL1041" }).first();
    const deadline = Date.now() + 30_000;
    while (!(await hover.isVisible())) {
      if (Date.now() > deadline) throw new Error(`the hover never showed KL1041: ${await page().locator(".monaco-hover").allInnerTexts()}`);
      await palette("Show or Focus Hover");
      await page().waitForTimeout(1500);
    }
    const said = (await hover.innerText()).replace(/\s+/g, " ").trim();
    await shoot(`python-${host}-diagnostic.png`);
    await page().keyboard.press("Escape");
    await palette("File: Revert File");
    await page().locator(".monaco-editor .squiggly-error").first().waitFor({ state: "detached", timeout: 30_000 });
    return said.slice(0, 160);
  });

  await check(`${host}: ▶ Run File → the panel lists the launches, the printed lines and the perf_report plot`, async () => {
    await page().locator(".codelens-decoration a", { hasText: "Run File" }).first().click();
    const frame = resultsFrame(page());
    const verdict = frame.locator('[data-testid="verdict"]').first();
    await verdict.waitFor({ state: "visible", timeout: runLimitMs });
    const said = (await verdict.innerText()).trim();
    if (!/^✓ The script finished, 1 check passed/.test(said)) throw new Error(`verdict: ${said}; ${(await frame.locator("main").innerText()).slice(0, 600)}`);
    const launches = await frame.locator('[data-testid="launches"] tbody tr').allInnerTexts();
    if (launches.length === 0 || !/add_kernel/.test(launches[0]) || !/BLOCK_SIZE=256/.test(launches[0])) throw new Error(`launches: ${JSON.stringify(launches)}`);
    const stdout = await frame.locator('[data-testid="stdout"]').innerText();
    if (!/The maximum difference between torch and triton is 0\.0/.test(stdout)) throw new Error(`printed: ${stdout.slice(0, 300)}`);
    const plot = frame.locator('[data-testid="plot"][data-plot="vector-add-performance"] canvas');
    await plot.waitFor({ state: "visible", timeout: 20_000 });
    const box = await plot.boundingBox();
    if (!box || box.width < 100 || box.height < 100) throw new Error(`the plot is ${JSON.stringify(box)}`);
    const checks = await frame.locator('[data-testid="checks"] tbody tr').allInnerTexts();
    await page().waitForTimeout(500);
    await shoot(`python-${host}-run.png`);
    await plot.scrollIntoViewIfNeeded();
    await shoot(`python-${host}-plot.png`);
    return `${said} | ${launches.length} launches, first: ${launches[0].replace(/\s+/g, " ")} | check: ${checks[0]?.replace(/\s+/g, " ")} | plot ${Math.round(box.width)}×${Math.round(box.height)}`;
  });

  if (host !== "web") return;
  // The web host keeps one worker for Python files: the second Run starts no Pyodide (web-workers.ts).
  await check("web: ▶ Run File again → Pyodide reused, the script run afresh in the same worker", async () => {
    const started = Date.now();
    await page().locator(".codelens-decoration a", { hasText: "Run File" }).first().click();
    const frame = resultsFrame(page());
    await frame.locator("span.muted", { hasText: "Python reused" }).first().waitFor({ state: "visible", timeout: runLimitMs });
    const said = (await frame.locator('[data-testid="verdict"]').first().innerText()).trim();
    if (!/^✓ The script finished, 1 check passed/.test(said)) throw new Error(`verdict: ${said}`);
    return `${said} | ${Date.now() - started} ms from the click`;
  });
}
