// The Testing view as a person uses it, in Chromium (Playwright) on code-server: open the
// test/editor/workspace/testing/ folder, show the Testing view, "Test: Run All Tests", and read
// the tree: every size of the passing runs green, the broken kernels' runs red, each mismatch
// message inline at the `tl.store` that wrote the element (of two-stores.kernel.ts's two stores,
// the second).
//   --installed   load the extension installed from the .vsix (see vsix.test.mjs)
//   --docs        also save docs/screenshot-testing.png
// Prints one line per check and `N passed, N failed`.
import { join } from "node:path";
import { repoRoot } from "./code-server.mjs";
import { workbenchTest } from "./workbench-test.mjs";

const { docs, page, shoot, finish, check, start, palette, openFile } = workbenchTest({ title: "Testing view test", prefix: "testing", timeLimitS: 240 });
const folder = join(repoRoot, "test/editor/workspace/testing");

/** The Testing view's visible rows: each item's label (without its description) and state icon. */
async function tree() {
  return page().evaluate(() =>
    [...document.querySelectorAll(".test-explorer .monaco-list-row")].map((row) => {
      const label = row.querySelector(".label");
      const text = label?.textContent ?? "";
      const description = label?.querySelector(".test-label-description")?.textContent ?? "";
      const icon = row.querySelector(".computed-state")?.className ?? "";
      const state = ["passed", "failed", "error", "queued", "skipped", "unset"].find((s) => icon.includes(`testing-${s}-icon`)) ?? icon;
      return { label: text.slice(0, text.length - description.length), description, state, expanded: row.getAttribute("aria-expanded") };
    }),
  );
}

/** Waits for rows with these labels, expanding collapsed rows (items get children as runs report). */
async function waitForRows(labels, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let rows = [];
  while (Date.now() < deadline) {
    await expandAll();
    rows = await tree();
    if (labels.every((l) => rows.some((r) => r.label === l))) return rows;
    await page().waitForTimeout(200);
  }
  throw new Error(`the Testing view has no ${labels.filter((l) => !rows.some((r) => r.label === l)).join(", ")} (rows: ${JSON.stringify(rows)})`);
}

/** Expands every collapsed row, until there is none. */
async function expandAll() {
  for (let round = 0; round < 10; round++) {
    const collapsed = page().locator('.test-explorer .monaco-list-row[aria-expanded="false"]');
    if ((await collapsed.count()) === 0) return;
    await collapsed.first().locator(".monaco-tl-twistie").click();
    await page().waitForTimeout(300);
  }
}

/** Opens `file` and checks that the editor draws the mismatch message (a widget at a line's end) on the line of `store`. */
async function inlineMessageAt(file, store) {
  await openFile(file);
  const widget = page().locator(".monaco-editor .test-error-content-widget .content").first();
  await widget.waitFor({ timeout: 20_000 });
  const text = (await widget.textContent())?.trim() ?? "";
  if (!/^out_ptr\[\d+\] = -?[\d.e-]+, expected -?[\d.e-]+ \(n = 1000\)$/.test(text)) throw new Error(`inline message: ${text}`);
  const storeLine = page().locator(".monaco-editor .view-line", { hasText: store }).first();
  const [lineBox, widgetBox] = [await storeLine.boundingBox(), await widget.boundingBox()];
  const lineMiddle = lineBox.y + lineBox.height / 2;
  if (!(widgetBox.y <= lineMiddle && lineMiddle <= widgetBox.y + widgetBox.height)) {
    throw new Error(`the message is at y ${widgetBox.y}..${widgetBox.y + widgetBox.height}, the store's line at ${lineBox.y}..${lineBox.y + lineBox.height}`);
  }
  return text;
}

try {
  await check("code-server and the workbench start on test/editor/workspace/testing/", () =>
    start({
      folder,
      settings: {
        "editor.minimap.enabled": false,
        "git.openRepositoryInParentFolders": "never",
        ...(docs ? { "workbench.colorTheme": "Default Dark Modern" } : {}),
      },
    }),
  );

  await check("the Testing view lists the three kernel files and their runs", async () => {
    await openFile("wrong-sign.kernel.ts");
    await page().locator('.activitybar .action-item a[aria-label^="Testing"]').click();
    await waitForRows(["wrong-sign.kernel.ts", "scale.kernel.ts", "two-stores.kernel.ts"], 60_000);
    const rows = await waitForRows(["scaleSweep", "scaleComputed", "wrongSign", "secondStoreWrong", "n = 1000", "n = 4097"], 10_000);
    return rows.map((r) => r.label).join(" | ");
  });

  await check('"Test: Run All Tests": the passing runs turn green, the broken kernels red', async () => {
    await palette("Test: Run All Tests");
    await page().locator(".test-explorer .codicon-testing-failed-icon").first().waitFor({ timeout: 180_000 });
    // Wait for the run to end: nothing queued or running is left.
    await page().waitForFunction(() => !document.querySelector(".test-explorer .codicon-testing-queued-icon, .test-explorer .codicon-loading"), null, { timeout: 180_000 });
    const want = { "scale.kernel.ts": "passed", scaleSweep: "passed", "n = 1000": "passed", "n = 4097": "passed", scaleComputed: "passed", "n = 301": "passed", "n = 601": "passed", "wrong-sign.kernel.ts": "failed", wrongSign: "failed", "two-stores.kernel.ts": "failed", secondStoreWrong: "failed" };
    const rows = await waitForRows(Object.keys(want), 10_000);
    const states = Object.fromEntries(Object.keys(want).map((label) => [label, rows.find((r) => r.label === label).state]));
    if (JSON.stringify(states) !== JSON.stringify(want)) throw new Error(`states: ${JSON.stringify(rows)}`);
    return rows.map((r) => `${r.label} ${r.state} (${r.description})`).join(" | ");
  });

  await check("the mismatch is shown in the editor at the tl.store, with got and expected", async () => {
    const text = await inlineMessageAt("wrong-sign.kernel.ts", "tl.store(out, x - y, mask)");
    await page().waitForTimeout(300);
    await shoot("testing-view.png", docs ? join(repoRoot, "docs/screenshot-testing.png") : undefined);
    return text;
  });

  await check("of two stores to one output, the mismatch is shown at the second, which wrote it", async () => {
    return inlineMessageAt("two-stores.kernel.ts", "tl.store(out_ptr + offsets, x * 3, mask && pid >= 2)");
  });
} catch {
  // Reported by check(); the checks after a failed one depend on it.
}
await finish();
