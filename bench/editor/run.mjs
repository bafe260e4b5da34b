// `npm run bench:editor`: how fast the editor side of Kernel Lab answers, on this machine.
//   check       the compiler's `checkFile` on each example in plain Node (out/bench/editor/check-time.js)
//   cli         `kernel-lab run examples/vector-add.kernel.ts --json` and `kernel-lab check examples/*.kernel.ts`,
//               wall clock, a cold process each time
//   activation  N fresh code-servers (fresh user data), each window opened on the repository: the
//               extension's own `activationMs` and the wall time from opening the window to it being active
//   keystroke   one window, the extension-host module bench/editor/suite/keystroke.ts: per example,
//               type one character before a `tl.` call, time until getDiagnostics has the kernel-lab
//               error, undo, time until it clears
//   dom         the same edits by key presses in Chromium (Playwright), timed inside the page from the
//               keydown to the squiggle appearing in (and leaving) the editor's DOM
// Flags: --only=check,cli,activation,keystroke,dom  --runs=N (activation windows, default 10)
//        --edits=N (per example, default 20)  --cli-runs=N (default 5)  --json (print the raw results only)
// Writes out/bench/editor/results.json and prints a Markdown summary. Never saves a file: it checks
// `git diff --quiet examples/` at the end.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { launchBrowser, onExit, repoRoot, startCodeServer } from "../../test/editor/code-server.mjs";

const argv = process.argv.slice(2);
const flag = (name, fallback) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const only = flag("only")?.split(",");
const wants = (phase) => !only || only.includes(phase);
const activationRuns = Number(flag("runs", 10));
const edits = Number(flag("edits", 20));
const cliRuns = Number(flag("cli-runs", 5));
const settleMs = Number(flag("settle-ms", 250));
const INSERT = "x";

const outDir = join(repoRoot, "out/bench/editor");
const resultsDir = join(outDir, "results");
const examples = readdirSync(join(repoRoot, "examples"))
  .filter((f) => f.endsWith(".kernel.ts"))
  .sort()
  .map((f) => `examples/${f}`);

let server;
let browser;
const cleanup = onExit(() => server?.close());

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { n: s.length, medianMs: median, p90Ms: at(0.9), minMs: s[0], maxMs: s[s.length - 1] };
}
const ms = (v) => (typeof v !== "number" || Number.isNaN(v) ? "–" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const log = (...args) => console.error(...args);

function sh(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: "utf8", maxBuffer: 64 << 20, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}\n${(result.stderr ?? "").slice(-2000)}`);
  }
  return result.stdout;
}

function timed(command, args) {
  const t = process.hrtime.bigint();
  const out = sh(command, args);
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out };
}

// ------------------------------------------------------------------------------------- build
log("building dist/ and the benchmark modules");
sh(process.execPath, ["scripts/build.mjs"], { stdio: ["ignore", "inherit", "inherit"] });
rmSync(outDir, { recursive: true, force: true });
const common = { bundle: true, platform: "node", target: "node20", format: "cjs", logLevel: "warning", sourcemap: "inline" };
await build({
  ...common,
  entryPoints: ["bench/editor/suite/activation.ts", "bench/editor/suite/keystroke.ts"].map((p) => join(repoRoot, p)),
  outdir: join(outDir, "suite"),
  external: ["vscode"],
});
await build({ ...common, entryPoints: [join(repoRoot, "bench/editor/check-time.ts")], outfile: join(outDir, "check-time.js"), external: ["typescript"] });

const results = { machine: machine(), date: new Date().toISOString(), load: {} };
/** The 1-minute load average when a phase ends: other work on the machine shows in the numbers. */
const noteLoad = (phase) => (results.load[phase] = Number(loadavg()[0].toFixed(2)));

function machine() {
  const os = readFileSync("/etc/os-release", "utf8").match(/PRETTY_NAME="([^"]+)"/)?.[1];
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.+)/)?.[1];
  return { os, cpu, cores: (readFileSync("/proc/cpuinfo", "utf8").match(/^processor/gm) ?? []).length, node: process.version };
}

// -------------------------------------------------------------------- check: the compiler alone
// Always measured: the other phases type at the places it finds.
log("checkFile in Node over the examples");
const checkTimes = JSON.parse(sh(process.execPath, [join(outDir, "check-time.js"), "--reps=200", ...examples]));
const cold = [];
for (let i = 0; i < 5; i++) cold.push(JSON.parse(sh(process.execPath, [join(outDir, "check-time.js"), "--cold", examples.at(-1)])));
noteLoad("check");
results.check = { ...checkTimes, cold: { loadMs: stats(cold.map((c) => c.loadMs)), firstCheckMs: stats(cold.map((c) => c.firstCheckMs)) } };

// -------------------------------------------------------------------------------- the command line
if (wants("cli")) {
  log(`kernel-lab run / check, ${cliRuns} cold processes each`);
  const cli = join(repoRoot, "bin/kernel-lab.js");
  const runs = [];
  let report;
  for (let i = 0; i < cliRuns; i++) {
    const { ms: t, out } = timed(process.execPath, [cli, "run", "examples/vector-add.kernel.ts", "--json"]);
    report = JSON.parse(out);
    if (report.runs?.[0]?.correct !== true) throw new Error(`kernel-lab run: vector-add did not match: ${out.slice(0, 400)}`);
    runs.push(t);
  }
  const checks = [];
  for (let i = 0; i < cliRuns; i++) checks.push(timed(process.execPath, [cli, "check", ...examples]).ms);
  noteLoad("cli");
  results.cli = {
    run: { command: "kernel-lab run examples/vector-add.kernel.ts --json", ...stats(runs), adapter: report.adapter, kernelMedianMs: report.runs[0].timing?.medianMs },
    check: { command: `kernel-lab check examples/*.kernel.ts (${examples.length} files)`, ...stats(checks) },
  };
}

// ------------------------------------------------------------------------- windows in code-server
/**
 * Opens a fresh code-server window on the repository, with the working tree's extension and
 * (optionally) an extension-host module to run; resolves when that module ends.
 */
async function window({ suite, settings = {}, timeoutMs = 300_000, body }) {
  server = await startCodeServer({ settings });
  try {
    browser = await launchBrowser();
    const { page } = browser;
    let exited;
    const exit = new Promise((r) => (exited = r));
    await page.exposeFunction("codeAutomationLog", (type, args) => {
      const text = Array.isArray(args) ? args.join(" ") : String(args);
      if (/error|fail/i.test(text) && !/Ignoring|\[Service Worker\]/.test(text)) log(`  [window] ${text}`);
    });
    await page.exposeFunction("codeAutomationExit", (code) => exited(Number(code) || 0));
    const openedAt = Date.now();
    await page.goto(
      server.workbenchUrl({
        folder: repoRoot,
        extensionDevelopmentPath: repoRoot,
        ...(suite ? { extensionTestsPath: join(outDir, "suite", `${suite}.js`) } : {}),
      }),
    );
    let code = 0;
    if (suite) {
      let timer;
      code = await Promise.race([exit, new Promise((r) => (timer = setTimeout(() => r("timeout"), timeoutMs)))]);
      clearTimeout(timer);
      if (code !== 0) throw new Error(`the ${suite} module ended with ${code}`);
    }
    const value = body ? await body(page) : undefined;
    return { openedAt, value };
  } finally {
    await browser?.browser.close().catch(() => {});
    browser = undefined;
    server.close();
    server = undefined;
  }
}

const readResult = (name) => JSON.parse(readFileSync(join(resultsDir, `${name}.json`), "utf8"));

if (wants("activation")) {
  const samples = [];
  for (let i = 0; i < activationRuns; i++) {
    rmSync(join(resultsDir, "activation.json"), { force: true });
    const { openedAt } = await window({ suite: "activation" });
    const r = readResult("activation");
    const activeAt = r.willActivateAt !== undefined ? r.willActivateAt + r.activationMs : undefined;
    const sample = {
      activationMs: r.activationMs,
      activeWhenSuiteStarted: r.activeWhenSuiteStarted,
      openToExtHostMs: r.extHostStartedAt - openedAt,
      extHostToReadyMs: r.extHostReadyAt - r.extHostStartedAt,
      readyToLoadCodeMs: r.willLoadCodeAt - r.extHostReadyAt,
      loadCodeMs: r.willActivateAt - r.willLoadCodeAt,
      openToActiveMs: activeAt - openedAt,
      openToSuiteMs: r.suiteStartedAt - openedAt,
    };
    samples.push(sample);
    log(`  activation ${i + 1}/${activationRuns}: activate() ${ms(sample.activationMs)} ms, loading its code ${ms(sample.loadCodeMs)} ms; window opened → extension host process ${ms(sample.openToExtHostMs)} ms → extension active ${ms(sample.openToActiveMs)} ms; active before the module ran: ${sample.activeWhenSuiteStarted}`);
  }
  const of = (key) => stats(samples.map((s) => s[key]).filter((v) => typeof v === "number"));
  noteLoad("activation");
  results.activation = {
    samples,
    activationMs: of("activationMs"),
    loadCodeMs: of("loadCodeMs"),
    openToExtHostMs: of("openToExtHostMs"),
    extHostToReadyMs: of("extHostToReadyMs"),
    readyToLoadCodeMs: of("readyToLoadCodeMs"),
    openToActiveMs: of("openToActiveMs"),
  };
}

const sites = Object.fromEntries(results.check.files.map((f) => [f.file, f.sites]));

if (wants("keystroke")) {
  log(`keystroke to diagnostics in the extension host: ${edits} edits per example`);
  writeFileSync(
    join(outDir, "config.json"),
    JSON.stringify({ insert: INSERT, edits, settleMs, files: examples.map((file) => ({ file, sites: sites[file] })) }, null, 2),
  );
  rmSync(join(resultsDir, "keystroke.json"), { force: true });
  await window({ suite: "keystroke", timeoutMs: 600_000 });
  const raw = readResult("keystroke");
  noteLoad("keystroke");
  results.keystroke = {
    insert: raw.insert,
    settleMs: raw.settleMs,
    files: raw.files.map((f) => ({
      file: f.file,
      error: f.error,
      showMs: stats(f.samples.map((s) => s.showMs)),
      clearMs: stats(f.samples.map((s) => s.clearMs)),
      typedMs: stats(f.samples.map((s) => s.typedMs)),
    })),
  };
  const all = raw.files.flatMap((f) => f.samples);
  results.keystroke.all = { showMs: stats(all.map((s) => s.showMs)), clearMs: stats(all.map((s) => s.clearMs)), typedMs: stats(all.map((s) => s.typedMs)) };
  for (const f of results.keystroke.files) {
    log(`  ${f.file}: shown ${ms(f.showMs.medianMs)} ms (p90 ${ms(f.showMs.p90Ms)}), cleared ${ms(f.clearMs.medianMs)} ms (p90 ${ms(f.clearMs.p90Ms)}), n=${f.showMs.n}${f.error ? ` ERROR ${f.error}` : ""}`);
  }
}

// ------------------------------------------------------------------ dom: key presses in Chromium
/** Line and column (1-based) of an offset. */
function lineCol(text, offset) {
  const before = text.slice(0, offset).split("\n");
  return [before.length, before.at(-1).length + 1];
}

async function domKeystrokes(page) {
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  await page.locator(".part.statusbar").waitFor({ timeout: 60_000 });
  // In-page timing: the keydown's time, and when the editor's DOM first has (or no longer has) an
  // error squiggle, seen by a MutationObserver (Monaco writes decorations in an animation frame).
  await page.evaluate(() => {
    window.__kl = { keydownAt: 0 };
    document.addEventListener("keydown", () => (window.__kl.keydownAt = performance.now()), true);
    window.__klWatch = (want) =>
      (window.__kl.pending = new Promise((resolve) => {
        const has = () => document.querySelector(".monaco-editor .squiggly-error") !== null;
        const observer = new MutationObserver(() => {
          if (has() === want) {
            observer.disconnect();
            resolve(performance.now());
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
      }));
  });
  const perFile = [];
  for (const file of examples) {
    const text = readFileSync(join(repoRoot, file), "utf8");
    await page.keyboard.press("Control+P");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(file);
    const name = file.split("/").pop();
    await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor({ timeout: 20_000 });
    await input.press("Enter");
    await page.locator(`.tab.active[aria-label^="${name}"]`).waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1000);
    if (await page.locator(".monaco-editor .squiggly-error").count()) throw new Error(`${file} shows an error squiggle before any edit`);
    const samples = [];
    // One edit first that is not counted (the TypeScript server's first look at the file competes for the CPU).
    for (let i = -1; i < edits; i++) {
      const [line, col] = lineCol(text, sites[file][Math.max(i, 0) % sites[file].length]);
      await page.keyboard.press("Control+G");
      await page.keyboard.type(`${line}:${col}`);
      await page.keyboard.press("Enter");
      await page.waitForTimeout(settleMs);
      await page.evaluate(() => void window.__klWatch(true));
      await page.keyboard.press(INSERT);
      const shownAt = await page.evaluate(() => window.__kl.pending);
      const typedAt = await page.evaluate(() => window.__kl.keydownAt);
      await page.waitForTimeout(settleMs);
      await page.evaluate(() => void window.__klWatch(false));
      await page.keyboard.press("Control+Z");
      const clearedAt = await page.evaluate(() => window.__kl.pending);
      const undoAt = await page.evaluate(() => window.__kl.keydownAt);
      if (i >= 0) samples.push({ showMs: shownAt - typedAt, clearMs: clearedAt - undoAt });
    }
    if (await page.locator(".tab.active.dirty").count()) throw new Error(`undo left ${file} modified`);
    perFile.push({ file, showMs: stats(samples.map((s) => s.showMs)), clearMs: stats(samples.map((s) => s.clearMs)), samples });
    log(`  ${file}: squiggle ${ms(perFile.at(-1).showMs.medianMs)} ms (p90 ${ms(perFile.at(-1).showMs.p90Ms)}), gone ${ms(perFile.at(-1).clearMs.medianMs)} ms`);
    await page.keyboard.press("Control+W");
  }
  return perFile;
}

if (wants("dom")) {
  log(`keystroke to squiggle in Chromium: ${edits} key presses per example`);
  // TypeScript's own squiggles would look the same in the DOM: its validation is off in this window
  // (the TypeScript server still runs), so every error squiggle is Kernel Lab's.
  const { value } = await window({ settings: { "typescript.validate.enable": false, "javascript.validate.enable": false }, body: domKeystrokes });
  const all = value.flatMap((f) => f.samples);
  noteLoad("dom");
  results.dom = { files: value.map(({ samples, ...f }) => f), all: { showMs: stats(all.map((s) => s.showMs)), clearMs: stats(all.map((s) => s.clearMs)) } };
}

// ------------------------------------------------------------------------------------ the end
const unchanged = spawnSync("git", ["diff", "--quiet", "examples/"], { cwd: repoRoot }).status === 0;
results.examplesUnchanged = unchanged;
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "results.json"), JSON.stringify(results, null, 2));
cleanup();
if (argv.includes("--json")) console.log(JSON.stringify(results, null, 2));
else console.log(summary(results));
if (!unchanged) {
  console.error("bench:editor: examples/ changed during the benchmark (git diff examples/)");
  process.exit(1);
}

function summary(r) {
  const row = (cells) => `| ${cells.join(" | ")} |`;
  const out = [];
  out.push(`Machine: ${r.machine.os}, ${r.machine.cores} cores (${r.machine.cpu}), Node ${r.machine.node}; ${r.date}`, "");
  out.push(`checkFile in Node (${r.check.reps} reps after 20 warm-up; clean file / with one "${r.check.insert}" typed before a tl. call):`, "");
  out.push(row(["example", "bytes", "clean median", "clean p90", "broken median", "broken p90"]), row(["---", "---:", "---:", "---:", "---:", "---:"]));
  for (const f of r.check.files) out.push(row([f.file, f.bytes, ms(f.clean.medianMs), ms(f.clean.p90Ms), ms(f.broken.medianMs), ms(f.broken.p90Ms)]));
  out.push("", `First use in a fresh process: loading the compiler ${ms(r.check.cold.loadMs.medianMs)} ms, its first check ${ms(r.check.cold.firstCheckMs.medianMs)} ms (medians of 5).`);
  if (r.activation) {
    const a = r.activation;
    out.push("", `Activation (${a.activationMs.n} fresh code-servers):`, "");
    out.push(row(["", "median", "p90", "min", "max"]), row(["---", "---:", "---:", "---:", "---:"]));
    for (const [label, s] of [
      ["activate() (the extension's activationMs)", a.activationMs],
      ["loading dist/extension.js (willLoadExtensionCode → willActivateExtension)", a.loadCodeMs],
      ["window opened (page.goto) → extension host process started", a.openToExtHostMs],
      ["extension host process started → ready (code/extHost/ready)", a.extHostToReadyMs],
      ["extension host ready → starts loading the extension", a.readyToLoadCodeMs],
      ["window opened → extension active", a.openToActiveMs],
    ]) out.push(row([label, ms(s.medianMs), ms(s.p90Ms), ms(s.minMs), ms(s.maxMs)]));
  }
  if (r.keystroke) {
    out.push("", `Keystroke → diagnostics in the extension host (getDiagnostics; ${r.keystroke.files[0]?.showMs.n} edits per file):`, "");
    out.push(row(["example", "shown median", "shown p90", "cleared median", "cleared p90", "type cmd median"]), row(["---", "---:", "---:", "---:", "---:", "---:"]));
    for (const f of [...r.keystroke.files, { file: "all", ...r.keystroke.all }]) {
      out.push(row([f.file + (f.error ? ` (error: ${f.error})` : ""), ms(f.showMs.medianMs), ms(f.showMs.p90Ms), ms(f.clearMs.medianMs), ms(f.clearMs.p90Ms), ms(f.typedMs.medianMs)]));
    }
  }
  if (r.dom) {
    out.push("", "Key press → squiggle in the DOM (Chromium, keydown to the error squiggle drawn / gone):", "");
    out.push(row(["example", "shown median", "shown p90", "gone median", "gone p90"]), row(["---", "---:", "---:", "---:", "---:"]));
    for (const f of [...r.dom.files, { file: "all", ...r.dom.all }]) out.push(row([f.file, ms(f.showMs.medianMs), ms(f.showMs.p90Ms), ms(f.clearMs.medianMs), ms(f.clearMs.p90Ms)]));
  }
  if (r.cli) {
    out.push("", `Command line (${r.cli.run.n} cold processes each):`, "");
    out.push(row(["command", "median", "p90", "min", "max"]), row(["---", "---:", "---:", "---:", "---:"]));
    for (const c of [r.cli.run, r.cli.check]) out.push(row([c.command, ms(c.medianMs), ms(c.p90Ms), ms(c.minMs), ms(c.maxMs)]));
    out.push("", `Adapter: ${r.cli.run.adapter?.description ?? JSON.stringify(r.cli.run.adapter)}`);
  }
  out.push("", `1-minute load average at the end of each phase: ${Object.entries(r.load).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  out.push(`examples/ unchanged afterwards: ${r.examplesUnchanged}`);
  return out.join("\n");
}
