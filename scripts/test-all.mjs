// `npm test`: every stage of the suite, in this order, and the time each took.
//
//   build → typecheck ‖ test:core → test:grammar ‖ test:webview ‖ test:web → test:editor
//
// On a 2-core machine (CI) a stage that keeps less than both cores busy leaves time to a stage
// beside it, so those run at once (‖): tsc is one thread beside test:core's two lanes, and the
// webview and web tests are each one Chromium page at a time, mostly waiting on it. The editor
// stages run alone: their UI tests wait on VS Code's timing. A stage beside another has its output
// held and printed whole when it ends; the first of each group prints as it goes. A failed group
// stops the run, as `&&` between the scripts did.
//
// test:webview and test:web each build dist/ first when run alone; here the build is done once, at
// the start, so their scripts run without it (two builds fewer, and none while another stage reads
// dist/). KERNEL_LAB_DIST_BUILT=1 tells test:core's command-line tests (test/cli/build.ts),
// test:editor's first stage and scripts/build.mjs itself (`npm run package` in test:editor) the
// same: five builds fewer in all.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts;
const BUILD_FIRST = "node scripts/build.mjs && ";

/** A package script's command line; `built` leaves out its own build of dist/ (done at the start). */
function command(name, built = false) {
  const line = scripts[name];
  if (line === undefined) throw new Error(`package.json has no script '${name}'`);
  if (!built) return line;
  if (!line.startsWith(BUILD_FIRST)) throw new Error(`package.json's '${name}' no longer starts with '${BUILD_FIRST}'`);
  return line.slice(BUILD_FIRST.length);
}

const groups = [
  [["build", command("build")]],
  [["test:core", command("test:core")], ["typecheck", command("typecheck")]],
  [["test:webview", command("test:webview", true)], ["test:web", command("test:web", true)], ["test:grammar", command("test:grammar")]],
  [["test:editor", command("test:editor")]],
];

// As `npm run` does: the packages' binaries (tsc, tsx, vscode-tmgrammar-test) on the PATH.
// (Windows spells the variable Path.)
const pathKey = Object.keys(process.env).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
const env = { ...process.env, [pathKey]: [join(root, "node_modules", ".bin"), process.env[pathKey]].filter(Boolean).join(delimiter) };
/** For every stage after the build (a failed build stops the run before them). */
const BUILT = { KERNEL_LAB_DIST_BUILT: "1" };

/** Runs one stage; held, its output comes back instead of going to the terminal. */
function runStage(name, line, held) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(line, { cwd: root, env: name === "build" ? env : { ...env, ...BUILT }, shell: true, stdio: held ? ["ignore", "pipe", "pipe"] : "inherit" });
    const chunks = [];
    if (held) {
      child.stdout.on("data", (d) => chunks.push(d));
      child.stderr.on("data", (d) => chunks.push(d));
    }
    child.on("close", (code, signal) =>
      resolve({ name, line, ok: code === 0, status: code ?? signal, seconds: (Date.now() - started) / 1000, output: Buffer.concat(chunks).toString() }),
    );
  });
}

const times = [];
let failed = [];
const started = Date.now();
for (const group of groups) {
  const names = group.map(([name]) => name).join(" ‖ ");
  console.log(`\n>>> ${names}`);
  const results = await Promise.all(group.map(([name, line], i) => {
    if (i === 0) console.log(`> ${name}: ${line}`);
    return runStage(name, line, i > 0);
  }));
  for (const [i, r] of results.entries()) {
    if (i > 0) process.stdout.write(`\n> ${r.name}: ${r.line} (run beside ${group[0][0]}; its output held until it ended)\n${r.output}`);
    times.push([r.name, r.seconds, i > 0 ? group[0][0] : undefined]);
  }
  failed = results.filter((r) => !r.ok);
  if (failed.length > 0) break;
}

console.log("\nnpm test, stage times:");
for (const [name, seconds, beside] of times) console.log(`  ${name.padEnd(14)} ${seconds.toFixed(1).padStart(6)} s${beside ? `  (beside ${beside})` : ""}`);
console.log(`  ${"total".padEnd(14)} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`);
if (failed.length > 0) {
  console.log(`\nnpm test: ${failed.map((r) => `${r.name} failed (${r.status})`).join(", ")}`);
  process.exit(1);
}
