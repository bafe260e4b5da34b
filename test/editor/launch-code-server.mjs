#!/usr/bin/env node
// Stands in for the VS Code executable in @vscode/test-electron's `runTests({ vscodeExecutablePath })`:
// takes the arguments `runTests` passes to VS Code, runs the extension tests in code-server's
// real (Node) extension host with Chromium showing the workbench, relays the test output, and
// exits with the tests' exit code.
//
// Arguments understood (the rest of VS Code's flags are ignored):
//   FOLDER                             the workspace to open
//   --extensionDevelopmentPath=PATH    the extension under test
//   --extensionTestsPath=PATH          the test runner module (exports `run(): Promise<void>`)
//   --enable-workspace-trust           ours: keep workspace trust on, so FOLDER opens untrusted
//   --time-limit=SECONDS               ours: give up after this long (default 400)
//   --screenshot=FILE.png              ours: a picture of the workbench when the tests end
import { startCodeServer, launchBrowser, onExit } from "./code-server.mjs";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { format } from "node:util";

const args = process.argv.slice(2);
const flag = (name) => {
  const prefix = `--${name}=`;
  const arg = args.find((a) => a.startsWith(prefix));
  return arg?.slice(prefix.length);
};
const folder = args.find((a) => !a.startsWith("-"));
const extensionDevelopmentPath = flag("extensionDevelopmentPath");
const extensionTestsPath = flag("extensionTestsPath");
const workspaceTrust = args.includes("--enable-workspace-trust");
const timeLimitS = Number(flag("time-limit") ?? process.env.KERNEL_LAB_EDITOR_TEST_LIMIT_S ?? 400);
const screenshot = flag("screenshot");
const verbose = process.env.KERNEL_LAB_EDITOR_TEST_VERBOSE === "1";

if (!folder || !extensionDevelopmentPath || !extensionTestsPath) {
  console.error("launch-code-server: need FOLDER, --extensionDevelopmentPath= and --extensionTestsPath=");
  process.exit(2);
}

let server;
let browser;
const cleanup = onExit(() => server?.close());

// The workbench's own start-up chatter, kept out of the test log unless KERNEL_LAB_EDITOR_TEST_VERBOSE=1.
const workbenchChatter =
  /^(Resolving connection token|Resolved connection token|Creating a socket|Ignoring fetching additional builtin|\[Service Worker\]|ChatSessionStore:|Updating additional builtin|Creation of workbench contribution|Started local extension host|Extension host \(|Loading development extension)/;

function relay(type, logArgs) {
  const text = Array.isArray(logArgs) ? format(...logArgs) : String(logArgs);
  if (!verbose && workbenchChatter.test(text)) return;
  process.stdout.write(text.endsWith("\n") ? text : text + "\n");
}

const timer = setTimeout(async () => {
  console.error(`launch-code-server: the tests did not finish within ${timeLimitS} s`);
  await finish(124);
}, timeLimitS * 1000);

let finishing = false;
async function finish(code) {
  if (finishing) return;
  finishing = true;
  clearTimeout(timer);
  if (screenshot && browser) {
    try {
      mkdirSync(dirname(screenshot), { recursive: true });
      await browser.page.screenshot({ path: screenshot, timeout: 10_000 });
    } catch (error) {
      console.error(`launch-code-server: no screenshot: ${error.message}`);
    }
  }
  await browser?.browser.close().catch(() => {});
  cleanup();
  process.exit(code);
}

try {
  server = await startCodeServer({
    workspaceTrust,
    onOutput: (line) => verbose && console.error(`[code-server] ${line}`),
  });
  browser = await launchBrowser();
  const { page } = browser;
  await page.exposeFunction("codeAutomationLog", relay);
  await page.exposeFunction("codeAutomationExit", (code) => finish(Number(code) || 0));
  page.on("pageerror", (error) => verbose && console.error(`[page] ${error.message}`));
  await page.goto(server.workbenchUrl({ folder, extensionDevelopmentPath, extensionTestsPath }));
} catch (error) {
  console.error(`launch-code-server: ${error.stack ?? error}`);
  await finish(1);
}
