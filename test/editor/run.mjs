// `npm run test:editor`: the extension inside a real VS Code (code-server 4.100 / VS Code 1.100).
//   1. build dist/ and compile the mocha suites into out/test/editor/
//   2. `npm run package`, the .vsix installed into a fresh code-server extensions folder
//   3. the trusted suite   (@vscode/test-electron runTests → launch-code-server.mjs), workspace test/editor/workspace/,
//      on the extension installed from the .vsix (its folder is the extensionDevelopmentPath; with
//      --only=… leaving out vsix, on the working tree)
//   4. the untrusted suite (workspace trust on, test/editor/workspace-untrusted/ opened in restricted mode), likewise
//   5. the Playwright UI test on that installed extension: palette → Run Kernel → the results table; then a
//      tutorial-style .py: its diagnostic, Run File → launches, printed lines and the perf plot (python-checks.mjs)
//   6. the Playwright Testing view test (test/editor/workspace/testing/): Run All Tests → green and red items
//   7. the web extension test: code-server with Kernel Lab in the browser's extension host, Chromium's
//      WebGPU, the web mocha suite (test/editor/suite-web/) and its runs compared with Node's (web.test.mjs)
//   8. the Playwright debugger test: a breakpoint, Debug program… → stopped, offsets in the Variables view
//   9. the Playwright learner's test (learn-view.test.mjs): the walkthrough, the Exercises view, a hint, Show Solution
//  10. the Playwright first-open test (first-open.test.mjs): a fresh folder in the web worker host, TypeScript's
//      "Cannot find module 'kernel-lab'", Kernel Lab's one-button offer, no problems after one click; then the
//      .py checks of stage 5 in that host, Run File on Chromium's WebGPU through Pyodide and JSPI
// Prints each stage's time and the tests' counts, and ends with `N passed, N failed`.
// Flags: --only=trusted,untrusted,vsix,ui,testing,web,debugger,learn,first-open (stages to run), --docs (the UI tests also write docs/screenshot-*.png).
// KERNEL_LAB_EDITOR_GREP=TEXT runs only the mocha tests whose title contains TEXT.
import { runTests } from "@vscode/test-electron";
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot, requireInstalled } from "./code-server.mjs";

const argv = process.argv.slice(2);
const only = argv.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
const wants = (stage) => !only || only.includes(stage);
const docs = argv.includes("--docs");

const outDir = join(repoRoot, "out/test/editor");
const resultsDir = join(outDir, "results");
const launcher = join(repoRoot, "test/editor/launch-code-server.mjs");
const testResults = join(repoRoot, "test-results");

const totals = { passed: 0, failed: 0 };
const timings = [];

async function stage(name, body) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  try {
    await body();
  } catch (error) {
    totals.failed++;
    console.log(`${name}: FAILED: ${error?.message ?? error}`);
  }
  const seconds = (Date.now() - started) / 1000;
  timings.push([name, seconds]);
  console.log(`=== ${name}: ${seconds.toFixed(1)} s ===`);
}

function sh(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: "inherit", ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
}

function tsFilesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFilesUnder(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** Runs one mocha suite in code-server and adds its counts (from the file the suite writes). */
async function suite(label, workspace, launchArgs) {
  const resultFile = join(resultsDir, `${label}.json`);
  rmSync(resultFile, { force: true });
  let exitError;
  const extensionUnderTest = installedExtension ?? repoRoot;
  console.log(`${label} suite: extension ${installedExtension ? `installed from the .vsix (${relative(repoRoot, installedExtension)})` : "from the working tree"}`);
  // The activation test checks the extension host loaded this folder and no other.
  process.env.KERNEL_LAB_EXTENSION_UNDER_TEST = extensionUnderTest;
  try {
    await runTests({
      vscodeExecutablePath: launcher,
      extensionDevelopmentPath: extensionUnderTest,
      extensionTestsPath: join(outDir, "suite", `${label}.js`),
      launchArgs: [workspace, `--screenshot=${join(testResults, `editor-${label}.png`)}`, ...launchArgs],
    });
  } catch (error) {
    exitError = error;
  }
  if (!existsSync(resultFile)) {
    throw new Error(`the ${label} suite reported no counts (${exitError?.message ?? "no result file"})`);
  }
  const counts = JSON.parse(readFileSync(resultFile, "utf8"));
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  console.log(`${label} suite: ${counts.passed} passed, ${counts.failed} failed, ${counts.pending} pending`);
  for (const failure of counts.failures) console.log(`  ✗ ${failure.title}: ${failure.message.split("\n")[0]}`);
}

/** The folder `code-server --install-extension` made for this package's id and version (vsix.test.mjs). */
function findInstalledExtension() {
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
  const dir = join(repoRoot, ".vscode-test/installed-extensions");
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((entry) => entry.startsWith(`${manifest.publisher}.${manifest.name}-${manifest.version}`));
  return name ? join(dir, name) : undefined;
}

/** A node script that prints `N passed, N failed` as its last such line. */
function countedScript(script, args) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  process.stdout.write(result.stdout);
  const counts = [...result.stdout.matchAll(/^(\d+) passed, (\d+) failed/gm)].at(-1);
  if (!counts) throw new Error(`${relative(repoRoot, script)} exited with ${result.status ?? result.signal} and reported no counts`);
  totals.passed += Number(counts[1]);
  totals.failed += Number(counts[2]);
  if (result.status !== 0 && Number(counts[2]) === 0) totals.failed++;
}

const started = Date.now();
try {
  requireInstalled();
} catch (error) {
  console.log(`test:editor: ${error.message}`);
  console.log("\n0 passed, 1 failed");
  process.exit(1);
}

await stage("build", async () => {
  // `npm test` (scripts/test-all.mjs) built dist/ at its start; run alone, this stage builds it.
  if (process.env.KERNEL_LAB_DIST_BUILT !== "1") sh(process.execPath, ["scripts/build.mjs"]);
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: tsFilesUnder(join(repoRoot, "test/editor/suite")),
    outdir: join(outDir, "suite"),
    outbase: join(repoRoot, "test/editor/suite"),
    platform: "node",
    target: "node20",
    format: "cjs",
    // Sources a test imports (src/editor/…) are bundled in; packages (vscode, mocha) stay external.
    bundle: true,
    packages: "external",
    sourcemap: "inline",
    logLevel: "warning",
  });
  // The web suite runs in the browser's extension host: one browser bundle, in a folder that is also
  // a web-only extension of its own, to run beside the installed web package (web.test.mjs).
  await build({
    entryPoints: [join(repoRoot, "test/editor/suite-web/index.ts")],
    outfile: join(outDir, "web-runner/index.js"),
    platform: "browser",
    target: "es2022",
    format: "cjs",
    bundle: true,
    external: ["vscode"],
    logLevel: "warning",
  });
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
  writeFileSync(
    join(outDir, "web-runner/package.json"),
    JSON.stringify({ name: "kernel-lab-web-tests", publisher: manifest.publisher, version: manifest.version, engines: manifest.engines, browser: "./index.js" }, null, 2),
  );
});

// The .vsix first, so the mocha suites and the UI tests all run on the extension as a user installs it.
let installedExtension;
if (wants("vsix")) {
  await stage("package and install the .vsix", () => countedScript(join(repoRoot, "test/editor/vsix.test.mjs"), []));
  installedExtension = findInstalledExtension();
  if (!installedExtension) {
    console.log("  ✗ no installed extension folder: the suites below run on the working tree");
    totals.failed++;
  }
}
if (wants("trusted")) await stage("trusted suite", () => suite("trusted", join(repoRoot, "test/editor/workspace"), []));
if (wants("untrusted")) {
  await stage("untrusted suite", () =>
    suite("untrusted", join(repoRoot, "test/editor/workspace-untrusted"), ["--enable-workspace-trust"]),
  );
}
if (wants("ui")) {
  const vsixArgs = wants("vsix") ? ["--installed"] : [];
  await stage("UI test", () => countedScript(join(repoRoot, "test/editor/ui.test.mjs"), [...vsixArgs, ...(docs ? ["--docs"] : [])]));
}
if (wants("testing")) {
  const vsixArgs = wants("vsix") ? ["--installed"] : [];
  await stage("Testing view UI test", () =>
    countedScript(join(repoRoot, "test/editor/testing-view.test.mjs"), [...vsixArgs, ...(docs ? ["--docs"] : [])]),
  );
}
if (wants("web")) {
  const vsixArgs = wants("vsix") ? ["--installed"] : [];
  await stage("web extension test", () => countedScript(join(repoRoot, "test/editor/web.test.mjs"), [...vsixArgs, ...(docs ? ["--docs"] : [])]));
}
if (wants("debugger")) {
  const vsixArgs = wants("vsix") ? ["--installed"] : [];
  await stage("debugger UI test", () =>
    countedScript(join(repoRoot, "test/editor/debugger-view.test.mjs"), [...vsixArgs, ...(docs ? ["--docs"] : [])]),
  );
}

if (wants("learn")) {
  const vsixArgs = wants("vsix") ? ["--installed"] : [];
  await stage("learner's UI test", () => countedScript(join(repoRoot, "test/editor/learn-view.test.mjs"), [...vsixArgs, ...(docs ? ["--docs"] : [])]));
}

if (wants("first-open")) {
  const vsixArgs = wants("vsix") ? ["--installed"] : [];
  await stage("first-open test (web worker host)", () => countedScript(join(repoRoot, "test/editor/first-open.test.mjs"), vsixArgs));
}

console.log("\nstage times:");
for (const [name, seconds] of timings) console.log(`  ${name.padEnd(32)} ${seconds.toFixed(1)} s`);
console.log(`  ${"total".padEnd(32)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
