// The web extension for real, in code-server's web worker extension host (VS Code for the Web's
// way of running extensions), on Chromium's WebGPU (`--enable-unsafe-webgpu`; SwiftShader here),
// with the web mocha suite (test/editor/suite-web/, bundled into out/test/editor/web-runner/) run
// beside it:
//   --installed   the web package as shipped: `kernel-lab-web-<version>.vsix` (no `main`) installed
//                 into a fresh extensions folder, the suite in a web-only test extension of its own;
//   otherwise     the working tree, moved into the browser's extension host by the user setting
//                 `remote.extensionKind: { "kernel-lab.kernel-lab": ["web"] }` (a remote workspace
//                 would run its `main` on the Node host), the suite inside it.
// Then, from here:
//   - the suite's counts and log (web.json beside the suite, written through VS Code's file system);
//   - the results panel of the last browser-side run, read in the page and photographed;
//   - each of the suite's Run Kernel reports compared with the Node runtime's (`kernel-lab run --json`,
//     Dawn, made while the browser works) on the same file, run and size: same sizes, grids,
//     constexprs (the autotuner's candidates where it picks), all correct.
//   --docs        also save docs/screenshot-web.png
// Prints one line per check and `N passed, N failed`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { codeServerEntry, launchBrowser, onExit, repoRoot, startCodeServer } from "./code-server.mjs";

const argv = process.argv.slice(2);
const docs = argv.includes("--docs");
const installed = argv.includes("--installed");
const installedWebDir = join(repoRoot, ".vscode-test/installed-web");
const runnerDir = join(repoRoot, "out/test/editor/web-runner");
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

/** The web package installed into a fresh extensions folder, with code-server's CLI (vsix.test.mjs does the same for the host's). */
function installWebPackage() {
  const vsix = join(repoRoot, `${manifest.name}-web-${manifest.version}.vsix`);
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: npm run package builds it`);
  rmSync(installedWebDir, { recursive: true, force: true });
  const scratch = mkdtempSync(join(tmpdir(), "kernel-lab-web-install-"));
  try {
    const result = spawnSync(
      process.execPath,
      [codeServerEntry, "--user-data-dir", join(scratch, "user-data"), "--extensions-dir", installedWebDir, "--install-extension", vsix, "--force"],
      { encoding: "utf8", timeout: 120_000, env: { ...process.env, XDG_CONFIG_HOME: join(scratch, "config"), XDG_DATA_HOME: join(scratch, "data"), EXTENSIONS_GALLERY: "{}" } },
    );
    if (result.status !== 0) throw new Error(`code-server --install-extension ${vsix}: ${result.stdout}${result.stderr}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return vsix;
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
  const suite = join(runnerDir, "index.js");
  const resultFile = join(runnerDir, "web.json");
  if (!existsSync(suite)) throw new Error(`${suite} is missing: test/editor/run.mjs builds it`);
  rmSync(resultFile, { force: true });
  console.log(`web test: code-server + Chromium (WebGPU), Kernel Lab ${installed ? "installed from its web package" : "from the working tree"} in the web worker extension host`);
  if (installed) await check("code-server installs the web package", () => relative(repoRoot, installWebPackage()));

  await check("the web suite runs in the browser's extension host", async () => {
    server = await startCodeServer({
      ...(installed ? { extensionsDir: installedWebDir } : {}),
      settings: {
        // The working tree has `main` too: only this setting puts it in the browser's extension host.
        ...(installed ? {} : { "remote.extensionKind": { [extensionId]: ["web"] } }),
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
    const extensionDevelopmentPath = installed ? runnerDir : repoRoot;
    await page.goto(server.workbenchUrl({ folder: workspace, extensionDevelopmentPath, extensionTestsPath: suite }));
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
