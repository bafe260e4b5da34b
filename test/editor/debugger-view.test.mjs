// The debugger as a person uses it, in Chromium (Playwright) on code-server: open
// examples/vector-add.kernel.ts, a breakpoint on `const mask` (F9), the `Debug program…` CodeLens,
// program 3 typed into its input box; the session stops inside add_kernel and the Variables view
// shows `offsets` as i32[1024], expanded to its elements; then Continue ends the session. Then a
// Python kernel (test/python/debug-row-sums.py): a breakpoint at its Python line, Debug program…
// above the kernel, the stop there with the Python names in the Variables view.
//   --installed   load the extension installed from the .vsix (see vsix.test.mjs)
//   --docs        also save docs/screenshot-debugger.png
// Prints one line per check and `N passed, N failed`.
import { join } from "node:path";
import { repoRoot } from "./code-server.mjs";
import { workbenchTest } from "./workbench-test.mjs";

const { docs, page, shoot, finish, check, start, openFile, goToLine } = workbenchTest({ title: "debugger UI test", prefix: "debugger", timeLimitS: 240 });

/** The Variables view's visible rows as "name: value". */
async function variableRows() {
  return page().evaluate(() =>
    [...document.querySelectorAll(".debug-variables .monaco-list-row")].map((row) => row.textContent?.replace(/\s+/g, " ").trim() ?? ""),
  );
}

try {
  await check("code-server and the workbench start", () =>
    start({
      settings: {
        "editor.minimap.enabled": false,
        "git.openRepositoryInParentFolders": "never",
        ...(docs ? { "workbench.colorTheme": "Default Dark Modern" } : {}),
      },
    }),
  );

  await check("a breakpoint on `const mask` in examples/vector-add.kernel.ts (F9)", async () => {
    await openFile("examples/vector-add.kernel.ts");
    await goToLine("examples/vector-add.kernel.ts", "const mask = offsets < n_elements;");
    await page().keyboard.press("F9");
    await page().locator(".monaco-editor .codicon-debug-breakpoint").first().waitFor({ timeout: 10_000 });
  });

  await check("Debug program… → program 3: stopped inside add_kernel", async () => {
    const lens = page().locator(".monaco-editor .codelens-decoration a", { hasText: "Debug program…" }).first();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    const input = page().locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill("3");
    await input.press("Enter");
    // The editor marks the line it stopped on.
    await page().locator(".monaco-editor .codicon-debug-stackframe").first().waitFor({ timeout: 60_000 });
    await page().locator(".debug-toolbar").waitFor({ timeout: 10_000 });
  });

  await check("the Variables view shows offsets as i32[1024], and its elements", async () => {
    const offsets = page().locator(".debug-variables .monaco-list-row", { hasText: "offsets" }).first();
    await offsets.waitFor({ timeout: 20_000 });
    const row = (await offsets.textContent())?.replace(/\s+/g, " ").trim() ?? "";
    if (!/^offsets ?=? ?i32\[1024\] \[3072, 3073, 3074/.test(row)) throw new Error(`offsets row: ${row}`);
    await offsets.locator(".monaco-tl-twistie").click();
    await page().locator(".debug-variables .monaco-list-row", { hasText: "dtype" }).first().waitFor({ timeout: 10_000 });
    // A wider side bar (its sash dragged right), so the picture shows the block's preview whole.
    const sidebar = await page().locator(".part.sidebar").boundingBox();
    if (sidebar) {
      const x = sidebar.x + sidebar.width - 1;
      const y = sidebar.y + sidebar.height / 2;
      await page().mouse.move(x, y);
      await page().mouse.down();
      await page().mouse.move(x + 220, y, { steps: 10 });
      await page().mouse.up();
      await page().mouse.move(x + 700, sidebar.y + sidebar.height - 40);
    }
    await page().waitForTimeout(500);
    const rows = await variableRows();
    if (!rows.some((r) => /^\[0\] ?[:=]? ?3072$/.test(r))) throw new Error(`rows: ${JSON.stringify(rows)}`);
    await shoot("debugger.png", docs ? join(repoRoot, "docs/screenshot-debugger.png") : undefined);
    return rows.slice(0, 12).join(" | ");
  });

  await check("Continue (F5) runs the program to its end and the session ends", async () => {
    await page().keyboard.press("F5");
    await page().locator(".debug-toolbar").waitFor({ state: "hidden", timeout: 30_000 });
  });

  await check("a Python kernel: F9 on `acc += tl.load(…)`, Debug program… → program 2 stops at that Python line", async () => {
    await openFile("test/python/debug-row-sums.py");
    await goToLine("test/python/debug-row-sums.py", "acc += tl.load(x_ptr + row * n_cols + cols");
    await page().keyboard.press("F9");
    await page().locator(".monaco-editor .codicon-debug-breakpoint").first().waitFor({ timeout: 10_000 });
    // The first kernel's lenses: row_sums_kernel (its helper `scaled` has none).
    const lens = page().locator(".monaco-editor .codelens-decoration a", { hasText: "Debug program…" }).first();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    const input = page().locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill("2");
    await input.press("Enter");
    // The script runs on the embedded Python up to the launch, then the program is recorded.
    await page().locator(".monaco-editor .codicon-debug-stackframe").first().waitFor({ timeout: 90_000 });
    const cols = page().locator(".debug-variables .monaco-list-row", { hasText: "cols" }).first();
    await cols.waitFor({ timeout: 20_000 });
    const rows = await variableRows();
    if (!rows.some((r) => /^row ?=? ?2$/.test(r))) throw new Error(`rows: ${JSON.stringify(rows)}`);
    if (!rows.some((r) => /^cols ?=? ?i32\[16\] \[0, 1, 2/.test(r))) throw new Error(`rows: ${JSON.stringify(rows)}`);
    await page().keyboard.press("Shift+F5");
    await page().locator(".debug-toolbar").waitFor({ state: "hidden", timeout: 30_000 });
    return rows.slice(0, 6).join(" | ");
  });
} catch {
  // Reported by check(); the checks after a failed one depend on it.
}
await finish();
