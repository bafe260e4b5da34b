// The web extension for real: code-server with the user setting `remote.extensionKind` forcing
// Kernel Lab into VS Code's web worker extension host (its `browser` entry, dist/web/extension.js),
// Chromium with `--enable-unsafe-webgpu` (WebGPU on SwiftShader here), and the web mocha suite
// (test/editor/suite-web/, bundled into out/test/editor/web/index.js) run beside the extension.
// Then, from here:
//   - the suite's counts and log (out/test/editor/results/web.json, written through VS Code's file system);
//   - the results panel of the last browser-side run, read in the page and photographed;
//   - each of the suite's Run Kernel reports compared with the Node runtime's (`kernel-lab run --json`,
//     Dawn) on the same file, run and size: same sizes, grids, constexprs (the autotuner's candidates
//     where it picks), all correct.
//   --installed   the extension installed from the .vsix (.vscode-test/installed-extensions/) instead of the working tree
//   --docs        also save docs/screenshot-web.png
// Prints one line per check and `N passed, N failed`.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser, onExit, repoRoot, startCodeServer } from "./code-server.mjs";

const argv = process.argv.slice(2);
const docs = argv.includes("--docs");
const installedDir = join(repoRoot, ".vscode-test/installed-extensions");
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const extensionId = `${manifest.publisher}.${manifest.name}`;
const workspace = join(repoRoot, "test/editor/workspace");
const resultsDir = join(repoRoot, "test-results");
const timeLimitS = Number(process.env.KERNEL_LAB_UI_TEST_LIMIT_S ?? 300);
mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;
let server;
let browser;
// A fresh autotune cache for the Node runs, so Node tunes as the browser's first run does.
const nodeCache = mkdtempSync(join(tmpdir(), "kernel-lab-web-node-"));
const cleanup = onExit(() => {
  server?.close();
  rmSync(nodeCache, { recursive: true, force: true });
});

async function finish() {
  await browser?.browser.close().catch(() => {});
  cleanup();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

setTimeout(async () => {
  console.log(`  ✗ the web test did not finish within ${timeLimitS} s`);
  failed++;
  await browser?.page.screenshot({ path: join(resultsDir, "web-timeout.png") }).catch(() => {});
  await finish();
}, timeLimitS * 1000).unref();

async function check(name, body) {
  const started = Date.now();
  try {
    const note = await body();
    passed++;
    console.log(`  ✔ ${name} (${Date.now() - started} ms)${note ? `\n      ${note}` : ""}`);
  } catch (error) {
    failed++;
    console.log(`  ✗ ${name} (${Date.now() - started} ms): ${error.message.split("\n").slice(0, 8).join("\n      ")}`);
    await browser?.page.screenshot({ path: join(resultsDir, `web-failure-${passed + failed}.png`) }).catch(() => {});
    throw error;
  }
}

/** The extension under test: with --installed the copy installed from the .vsix (if the install failed, the working tree), else the working tree. */
function extensionUnderTest() {
  if (!argv.includes("--installed")) return repoRoot;
  const name = existsSync(installedDir) && readdirSync(installedDir).find((e) => e.startsWith(`${extensionId}-${manifest.version}`));
  if (name) return join(installedDir, name);
  console.log(`  (no installed ${extensionId} in ${installedDir}: the working tree instead)`);
  return repoRoot;
}

/**
 * The suite's runs (test/editor/suite-web/runs.json) on the Node runtime, one `kernel-lab run --json`
 * after another, while the browser works: file:run → report.
 */
async function runOnNode() {
  const reports = new Map();
  const runs = JSON.parse(readFileSync(join(repoRoot, "test/editor/suite-web/runs.json"), "utf8"));
  for (const { file, run, size } of runs) {
    const args = ["bin/kernel-lab.js", "run", join(workspace, file), "--run", run, "--reps", "5", "--json", ...(size ? ["--size", String(size)] : [])];
    const { code, stdout, stderr } = await new Promise((resolve) => {
      const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, KERNEL_LAB_CACHE_DIR: nodeCache } });
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (c) => (out += c));
      child.stderr.setEncoding("utf8").on("data", (c) => (err += c));
      child.on("close", (exitCode) => resolve({ code: exitCode, stdout: out, stderr: err }));
    });
    if (code !== 0) throw new Error(`kernel-lab ${args.slice(1).join(" ")} exited with ${code}: ${stderr}`);
    reports.set(`${file}:${run}`, JSON.parse(stdout));
  }
  return reports;
}
const nodeRuns = runOnNode();
nodeRuns.catch(() => {});

let web;
try {
  const extension = extensionUnderTest();
  console.log(`web test: code-server + Chromium (WebGPU), Kernel Lab ${extension === repoRoot ? "from the working tree" : "installed from the .vsix"} in the web worker extension host`);
  const suite = join(extension, "out/test/editor/web/index.js");
  const resultFile = join(extension, "out/test/editor/results/web.json");
  if (extension !== repoRoot) {
    // The web host loads test code only from inside the development extension's folder.
    mkdirSync(join(extension, "out/test/editor/web"), { recursive: true });
    copyFileSync(join(repoRoot, "out/test/editor/web/index.js"), suite);
  }
  if (!existsSync(suite)) throw new Error(`${suite} is missing: test/editor/run.mjs builds it`);
  rmSync(resultFile, { force: true });

  await check("the web suite runs in the browser's extension host", async () => {
    server = await startCodeServer({
      settings: {
        "remote.extensionKind": { [extensionId]: ["web"] },
        "kernelLab.repetitions": 5,
        "editor.minimap.enabled": false,
        "git.openRepositoryInParentFolders": "never",
        ...(docs ? { "workbench.colorTheme": "Default Dark Modern" } : {}),
      },
    });
    browser = await launchBrowser({ width: 1600, height: 900, webgpu: true });
    const { page } = browser;
    const exited = new Promise((resolve) => {
      page.exposeFunction("codeAutomationExit", (code) => resolve(Number(code) || 0));
    });
    await page.exposeFunction("codeAutomationLog", () => {});
    await page.goto(server.workbenchUrl({ folder: workspace, extensionDevelopmentPath: extension, extensionTestsPath: suite }));
    const code = await exited;
    if (!existsSync(resultFile)) throw new Error(`the suite exited with ${code} and wrote no ${resultFile}`);
    web = JSON.parse(readFileSync(resultFile, "utf8"));
    for (const line of web.log) console.log(`    ${line}`);
    for (const note of web.notes) console.log(`      ${note}`);
    passed += web.passed;
    failed += web.failed;
    if (web.failed > 0 || code !== 0) throw new Error(`${web.failed} failed in the browser (exit ${code}): ${web.failures.map((f) => f.message).join("\n")}`);
    return `${web.passed} passed in the web worker host`;
  });

  await check("the results panel shows the last browser-side run", async () => {
    const frame = browser.page.frameLocator("iframe.webview.ready").frameLocator("#active-frame");
    await frame.locator("text=smallMatmul").first().waitFor({ timeout: 20_000 });
    await browser.page.waitForTimeout(500);
    await browser.page.screenshot({ path: join(resultsDir, "web.png") });
    if (docs) await browser.page.screenshot({ path: join(repoRoot, "docs/screenshot-web.png") });
    return `test-results/web.png${docs ? ", docs/screenshot-web.png" : ""}`;
  });

  await check("each browser run agrees with the Node runtime's on the same kernel", async () => {
    const lines = [];
    const nodeReports = await nodeRuns;
    for (const { file, run, report } of web.runs) {
      const nodeReport = nodeReports.get(`${file}:${run}`);
      if (!nodeReport) throw new Error(`no Node report for ${file}:${run}`);
      const [w] = report.runs;
      const [n] = nodeReport.runs;
      const same = (what, a, b) => {
        if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${run}: ${what} differ: browser ${JSON.stringify(a)}, Node ${JSON.stringify(b)}`);
      };
      same("names", w.name, n.name);
      same("sizes", w.size, n.size);
      // The autotuner may pick another config on another adapter: then the candidates must agree.
      if (w.autotune || n.autotune) same("autotune candidates", w.autotune?.candidates.map((c) => c.constexprs), n.autotune?.candidates.map((c) => c.constexprs));
      if (JSON.stringify(w.constexprs) === JSON.stringify(n.constexprs) || !w.autotune) {
        same("constexprs", w.constexprs, n.constexprs);
        same("grids", w.grid, n.grid);
      }
      if (w.autotune && !w.autotune.candidates.every((c) => c.correct)) throw new Error(`${run}: a candidate failed in the browser: ${JSON.stringify(w.autotune.candidates)}`);
      if (!w.correct || !n.correct) throw new Error(`${run}: correct in the browser ${w.correct}, in Node ${n.correct}`);
      const clock = (r) => `${r.timing.medianMs.toPrecision(3)} ms (${r.timing.source}${r.timing.resolutionMs !== undefined ? ` in ${r.timing.resolutionMs} ms steps` : ""})`;
      const picked = (r) => (r.autotune ? `, picked ${JSON.stringify(r.constexprs)}` : "");
      lines.push(
        `${run} n=${w.size} grid [${w.grid}] ${JSON.stringify(w.constexprs)}: browser ${report.adapter.device} ${clock(w)}, max diff ${w.maxAbsDiff}${picked(w)}; ` +
          `Node ${nodeReport.adapter.device} ${clock(n)}, max diff ${n.maxAbsDiff}${picked(n)}`,
      );
    }
    return lines.join("\n      ");
  });
} catch {
  // Reported by check(); the checks after a failed one depend on it.
}
await finish();
