// Starts a private code-server (VS Code 1.100 served to a browser) and a headless Chromium for it.
// Used by the extension-test launcher and the UI test; every process started here is killed by
// `close()`, on a signal, and when the time limit runs out. See docs/ENVIRONMENT.md §5.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// Where scripts/setup-editor.sh installs code-server (keep the two in step).
const codeServerVersion = "4.100.3";
const codeServerHome =
  process.env.KERNEL_LAB_CODE_SERVER_HOME ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "kernel-lab", `code-server-${codeServerVersion}`);
export const codeServerEntry = join(codeServerHome, "node_modules/code-server/out/node/entry.js");
const chromiumPath = process.env.KERNEL_LAB_CHROMIUM ?? "/usr/bin/chromium";

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

export function requireInstalled() {
  for (const [path, hint] of [
    [codeServerEntry, "code-server"],
    [chromiumPath, "chromium"],
  ]) {
    if (!existsSync(path)) {
      throw new Error(`${hint} is not installed (${path} is missing): run scripts/setup-editor.sh (as root)`);
    }
  }
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHttp(url, child, limitMs) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited early with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer ${url} within ${limitMs} ms`);
}

/**
 * A code-server with fresh user-data and extensions folders.
 * @param {object} options
 * @param {boolean} [options.workspaceTrust] keep VS Code's workspace trust on, so a fresh folder opens
 *   untrusted (restricted mode); off by default, as @vscode/test-electron does.
 * @param {Record<string, unknown>} [options.settings] extra user settings
 * @param {string} [options.extensionsDir] use this extensions folder (e.g. one a .vsix was installed into)
 * @param {(line: string) => void} [options.onOutput] code-server's own stdout/stderr lines
 */
export async function startCodeServer(options = {}) {
  requireInstalled();
  const scratch = mkdtempSync(join(tmpdir(), "kernel-lab-code-server-"));
  const userDataDir = join(scratch, "user-data");
  const extensionsDir = options.extensionsDir ?? join(scratch, "extensions");
  mkdirSync(join(userDataDir, "User"), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  for (const dir of ["config", "data", "runtime"]) mkdirSync(join(scratch, dir));

  const trust = options.workspaceTrust === true;
  const settings = {
    "workbench.startupEditor": "none",
    // Tests type into example files; nothing may reach the disk.
    "files.autoSave": "off",
    "workbench.tips.enabled": false,
    "telemetry.telemetryLevel": "off",
    "extensions.autoUpdate": false,
    "extensions.autoCheckUpdates": false,
    "update.mode": "none",
    "security.workspace.trust.enabled": trust,
    // Restricted mode without the modal prompt: the test sees what a user who said "No" sees.
    "security.workspace.trust.startupPrompt": "never",
    "security.workspace.trust.banner": "always",
    ...options.settings,
  };
  writeFileSync(join(userDataDir, "User/settings.json"), JSON.stringify(settings, null, 2));

  const port = await freePort();
  const args = [
    codeServerEntry,
    "--bind-addr", `127.0.0.1:${port}`,
    "--auth", "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-getting-started-override",
    "--ignore-last-opened",
    "--user-data-dir", userDataDir,
    "--extensions-dir", extensionsDir,
    ...(trust ? [] : ["--disable-workspace-trust"]),
  ];
  const child = spawn(process.execPath, args, {
    // Its own process group, so the extension host and everything under it die with it.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(scratch, "config"),
      XDG_DATA_HOME: join(scratch, "data"),
      XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? join(scratch, "runtime"),
      // No extension gallery: nothing here may reach outside the machine.
      EXTENSIONS_GALLERY: "{}",
    },
  });
  const onOutput = options.onOutput ?? (() => {});
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) onOutput(line);
    });
  }

  const close = () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, 30_000);
  } catch (error) {
    close();
    throw error;
  }
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    userDataDir,
    extensionsDir,
    child,
    /** The workbench URL for `folder`, with extension-development paths passed the way the CLI can't. */
    workbenchUrl({ folder, extensionDevelopmentPath, extensionTestsPath }) {
      const remote = (path) => `vscode-remote://127.0.0.1:${port}${resolve(path)}`;
      const payload = [];
      if (extensionDevelopmentPath) payload.push(["extensionDevelopmentPath", remote(extensionDevelopmentPath)]);
      if (extensionTestsPath) payload.push(["extensionTestsPath", remote(extensionTestsPath)]);
      let url = `${origin}/?folder=${encodeURIComponent(resolve(folder))}`;
      if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return url;
    },
    close,
  };
}

/**
 * Headless Debian Chromium through playwright-core (no browser download). `webgpu`: offer WebGPU
 * to the page (SwiftShader without a GPU; a loopback http:// page is a secure context), docs/ENVIRONMENT.md §6.
 */
export async function launchBrowser({ width = 1600, height = 1000, webgpu = false } = {}) {
  const { chromium } = await import("playwright-core");
  const args = [...chromiumArgs, ...(webgpu ? ["--enable-unsafe-webgpu"] : [])];
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args });
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  return { browser, context, page };
}

/** Runs `cleanup` once, whether the process ends normally, by a signal or by the time limit. */
export function onExit(cleanup) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cleanup();
  };
  process.on("exit", once);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      once();
      process.exit(130);
    });
  }
  return once;
}
