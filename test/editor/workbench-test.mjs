// What the three Playwright tests (ui.test.mjs, testing-view.test.mjs, debugger-view.test.mjs)
// share: their flags, checks that print one line each and `N passed, N failed`, screenshots into
// test-results/, a time limit, and the workbench — code-server started on a folder with the
// extension from the working tree or installed from the .vsix, Chromium showing it, the command
// palette and Quick Open.
//   --installed   load the extension installed from the .vsix (.vscode-test/installed-extensions/,
//                 see vsix.test.mjs) instead of the working tree
//   --docs        the test also saves its docs/screenshot-*.png
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launchBrowser, onExit, repoRoot, startCodeServer } from "./code-server.mjs";

/**
 * @param {object} options
 * @param {string} options.title     what the test is called in its messages ("the UI test")
 * @param {string} options.prefix    the start of its screenshot names ("ui")
 * @param {number} options.timeLimitS its default time limit (KERNEL_LAB_UI_TEST_LIMIT_S overrides)
 */
export function workbenchTest({ title, prefix, timeLimitS: defaultLimitS }) {
  const argv = process.argv.slice(2);
  const installed = argv.includes("--installed");
  const docs = argv.includes("--docs");
  const timeLimitS = Number(process.env.KERNEL_LAB_UI_TEST_LIMIT_S ?? defaultLimitS);
  const resultsDir = join(repoRoot, "test-results");
  mkdirSync(resultsDir, { recursive: true });

  let passed = 0;
  let failed = 0;
  let server;
  let browser;
  const cleanup = onExit(() => server?.close());
  const page = () => browser.page;

  async function shoot(name, also) {
    if (!browser) return;
    try {
      await browser.page.screenshot({ path: join(resultsDir, name) });
      if (also) await browser.page.screenshot({ path: also });
    } catch (error) {
      console.log(`      (no screenshot ${name}: ${error.message})`);
    }
  }

  async function finish() {
    await browser?.browser.close().catch(() => {});
    cleanup();
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  }

  setTimeout(async () => {
    console.log(`  ✗ the ${title} did not finish within ${timeLimitS} s`);
    failed++;
    await shoot(`${prefix}-timeout.png`);
    await finish();
  }, timeLimitS * 1000).unref();

  /** One check; a failure skips the checks that depend on it (the caller's try ends the test). */
  async function check(name, body) {
    const started = Date.now();
    try {
      const note = await body();
      passed++;
      console.log(`  ✔ ${name} (${Date.now() - started} ms)${note ? `\n      ${note}` : ""}`);
    } catch (error) {
      failed++;
      console.log(`  ✗ ${name} (${Date.now() - started} ms): ${error.message.split("\n").slice(0, 12).join("\n      ")}`);
      await shoot(`${prefix}-failure-${passed + failed}.png`);
      throw error;
    }
  }

  /** code-server on `folder` with `settings`, Chromium at `viewport`, the workbench drawn. */
  async function start({ folder = repoRoot, settings = {}, viewport = { width: 1600, height: 900 } } = {}) {
    server = await startCodeServer({
      ...(installed ? { extensionsDir: join(repoRoot, ".vscode-test/installed-extensions") } : {}),
      settings,
    });
    browser = await launchBrowser(viewport);
    const url = server.workbenchUrl({ folder, ...(installed ? {} : { extensionDevelopmentPath: repoRoot }) });
    await page().goto(url);
    await page().locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    await page().locator(".part.statusbar").waitFor({ timeout: 60_000 });
  }

  async function palette(commandTitle) {
    await page().keyboard.press("F1");
    const input = page().locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(`>${commandTitle}`);
    const row = page().locator(".quick-input-list .monaco-list-row", { hasText: commandTitle }).first();
    await row.waitFor({ state: "visible", timeout: 15_000 });
    await input.press("Enter");
  }

  /** Quick Open on a path relative to the folder; resolves once its tab is active and drawn. */
  async function openFile(relativePath) {
    await page().keyboard.press("Control+P");
    const input = page().locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(relativePath);
    const name = relativePath.split("/").pop();
    await page().locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor({ timeout: 20_000 });
    await input.press("Enter");
    await page().locator(`.tab.active[aria-label^="${name}"]`).waitFor({ timeout: 20_000 });
    // The editor has the text once the first line is drawn.
    await page().locator(".monaco-editor .view-lines").first().waitFor({ timeout: 20_000 });
  }

  /**
   * Puts the cursor at the start of the first line of the active editor that holds `text`, from the
   * keyboard (Go to Line, Ctrl+G), checked in the status bar: a click on the line's text waits for
   * it to hold still, which a line under arriving CodeLenses may not do for long (CI, 2026-12-06).
   * `file` is the editor's file, relative to the folder, read to find the line's number.
   */
  async function goToLine(file, text, folder = repoRoot) {
    const lines = readFileSync(join(folder, file), "utf8").split(/\r?\n/);
    const line = lines.findIndex((l) => l.includes(text)) + 1;
    if (line === 0) throw new Error(`${file} has no line with ${JSON.stringify(text)}`);
    await page().locator(".monaco-editor .view-line", { hasText: text }).first().waitFor({ timeout: 20_000 });
    await page().keyboard.press("Control+G");
    const input = page().locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(`:${line}`);
    await input.press("Enter");
    await page().locator(".part.statusbar", { hasText: `Ln ${line},` }).waitFor({ timeout: 10_000 });
  }

  console.log(`${title}: code-server + Chromium, extension ${installed ? "installed from the .vsix" : "from the working tree"}`);
  return { installed, docs, resultsDir, page, shoot, finish, check, start, palette, openFile, goToLine };
}
