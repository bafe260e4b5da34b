// A new user's first kernel in VS Code for the Web, in Chromium (Playwright) on code-server with
// Kernel Lab in the web worker extension host: a fresh folder outside the repository (no
// tsconfig.json, no types) with two kernel files. TypeScript runs on code-server's Node host, apart
// from Kernel Lab's TS plugin, so the first file's two imports show "Cannot find module
// 'kernel-lab'". Kernel Lab offers its types once, as a notification with one button; one click,
// and that file and the next one opened have no problems left (TypeScript's hover then names the
// declared tl.* functions). Then, in the same host, a tutorial-style .py: its diagnostic, Run File on
// the browser's WebGPU and the results panel (python-checks.mjs).
//   --installed   load the extension installed from the .vsix instead of the working tree
// Prints one line per check and `N passed, N failed`; screenshots in test-results/first-open-*.png.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./code-server.mjs";
import { workbenchTest } from "./workbench-test.mjs";
import { pythonChecks } from "./python-checks.mjs";

const { page, shoot, finish, check, start, palette } = workbenchTest({ title: "first-open test", prefix: "first-open", timeLimitS: 420 });

const manifest = (await import(join(repoRoot, "package.json"), { with: { type: "json" } })).default;
const folder = mkdtempSync(join(tmpdir(), "kernel-lab-first-open-"));
for (const name of ["vector-add.kernel.ts", "softmax.kernel.ts"]) copyFileSync(join(repoRoot, "examples", name), join(folder, name));
// Then Triton's own Python in the same host, on the browser's WebGPU (python-checks.mjs).
copyFileSync(join(repoRoot, "test/python/vector-add.py"), join(folder, "vector-add.py"));
process.on("exit", () => rmSync(folder, { recursive: true, force: true }));

/** Errors and warnings as the status bar counts them (the Problems view's totals). */
async function problems() {
  const item = page().locator('[id="status.problems"]');
  await item.waitFor({ timeout: 20_000 });
  const label = (await item.getAttribute("aria-label")) ?? (await item.innerText());
  const numbers = [...label.matchAll(/\d+/g)].map((m) => Number(m[0]));
  return { total: numbers.reduce((a, b) => a + b, 0), label: label.replace(/\s+/g, " ").trim() };
}

async function waitForProblems(wanted, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await problems();
    if (wanted(last.total)) return last;
    await page().waitForTimeout(500);
  }
  throw new Error(`${what}: the status bar still says ${last?.label}`);
}

/** Opens a file of the folder from the Explorer, as a new user would; resolves once its tab is drawn. */
async function openFile(name) {
  await page().locator(".explorer-folders-view .monaco-list-row", { hasText: name }).first().dblclick({ timeout: 60_000 });
  await page().locator(`.tab.active[aria-label^="${name}"]`).waitFor({ timeout: 60_000 });
  await page().locator(".monaco-editor .view-lines").first().waitFor({ timeout: 60_000 });
}

const offer = () => page().locator(".notification-toast", { hasText: "can't find the module 'kernel-lab'" });

try {
  await check("code-server opens a fresh folder, Kernel Lab in the web worker host", () =>
    start({
      folder,
      // WebGPU for the Python run at the end (launchBrowser reads `webgpu` beside the size).
      viewport: { width: 1600, height: 900, webgpu: true },
      settings: { "remote.extensionKind": { [`${manifest.publisher}.${manifest.name}`]: ["web"] }, "editor.minimap.enabled": false },
    }),
  );

  let before;
  await check("the first kernel file opened: TypeScript can't find 'kernel-lab'", async () => {
    await openFile("vector-add.kernel.ts");
    before = await waitForProblems((n) => n > 0, "TypeScript's errors on the imports", 90_000);
    // Both imports, once TypeScript has checked the whole file.
    await page().waitForTimeout(2000);
    before = await problems();
    return `before: ${before.total} problems (${before.label})`;
  });

  await check("Kernel Lab offers its types, as a notification with one button", async () => {
    await offer().first().waitFor({ state: "visible", timeout: 30_000 });
    const buttons = await offer().first().locator(".monaco-button").allInnerTexts();
    if (buttons.length !== 1 || buttons[0].trim() !== "Add Types") throw new Error(`buttons: ${JSON.stringify(buttons)}`);
    await shoot("first-open-offer.png");
    return (await offer().first().locator(".notification-list-item-message").innerText()).trim();
  });

  await check("one click on Add Types, and the file has no problems", async () => {
    await offer().first().locator(".monaco-button", { hasText: "Add Types" }).click();
    const after = await waitForProblems((n) => n === 0, "the problems after Add Types", 90_000);
    return `after: ${after.total} problems (${after.label}), was ${before.total}`;
  });

  await check("the next kernel file opens clean, and the offer is not made again", async () => {
    // The Explorer re-sorts as the written files appear: open the next file once they are listed.
    for (const written of ["kernel-lab.d.ts", "tsconfig.json"]) await page().locator(".explorer-folders-view .monaco-list-row", { hasText: written }).first().waitFor({ timeout: 30_000 });
    await openFile("softmax.kernel.ts");
    // Kernel Lab's inlay hints show the file was checked; give TypeScript as long again.
    await page().locator(".monaco-editor .view-lines", { hasText: "col_offsets: i32[1024]" }).first().waitFor({ timeout: 60_000 });
    // TypeScript's own hover over tl.programId names the declared function once it has loaded the
    // project the written tsconfig.json makes and read the types (without them it says `any`).
    const lines = readFileSync(join(folder, "softmax.kernel.ts"), "utf8").split("\n");
    const line = lines.findIndex((l) => l.includes("tl.programId("));
    await page().locator(".monaco-editor .view-lines").first().click();
    await page().keyboard.press("Control+G");
    await page().keyboard.type(`${line + 1}:${lines[line].indexOf("programId") + 3}`);
    await page().keyboard.press("Enter");
    const typescriptHover = page().locator(".monaco-hover", { hasText: "function tl.programId" }).first();
    const deadline = Date.now() + 90_000;
    while (!(await typescriptHover.isVisible())) {
      if (Date.now() > deadline) throw new Error(`TypeScript's hover over tl.programId never named the function: ${await page().locator(".monaco-hover").allInnerTexts()}`);
      await palette("Show or Focus Hover");
      await page().waitForTimeout(2000);
    }
    await page().keyboard.press("Escape");
    await page().waitForTimeout(1000);
    const now = await problems();
    if (now.total !== 0) throw new Error(`softmax.kernel.ts: ${now.label}`);
    if (await offer().count()) throw new Error("the offer was made again");
    await shoot("first-open-clean.png");
    return `${now.total} problems; test-results/first-open-offer.png, test-results/first-open-clean.png`;
  });

  await palette("View: Close All Editors");
  await pythonChecks(
    { page, check, shoot, palette },
    { host: "web", open: () => openFile("vector-add.py"), text: readFileSync(join(folder, "vector-add.py"), "utf8"), runLimitMs: 240_000 },
  );
} catch {
  // Reported by check(); the checks after a failed one depend on it.
}
await finish();
