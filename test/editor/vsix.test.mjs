// The .vsix as a user gets it: `npm run package`, then `code-server --install-extension` into a
// fresh extensions folder (.vscode-test/installed-extensions/, which the UI test's --installed
// mode loads), then checks of what landed there, and vector-add run by the packaged command line
// from the installed folder (its own webgpu/dawn.node, esbuild and typescript, nothing from the repo).
// Prints one line per check and `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codeServerEntry, repoRoot, requireInstalled } from "./code-server.mjs";

export const installedExtensionsDir = join(repoRoot, ".vscode-test/installed-extensions");

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const extensionId = `${manifest.publisher}.${manifest.name}`;
const vsixPath = join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);

let passed = 0;
let failed = 0;
function check(title, body) {
  const started = Date.now();
  try {
    body();
    passed++;
    console.log(`  ✔ ${title} (${Date.now() - started} ms)`);
    return true;
  } catch (error) {
    failed++;
    console.log(`  ✗ ${title}: ${error.message}`);
    return false;
  }
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: "utf8", timeout: 180_000, ...options });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}\n${output}`);
  }
  return result.stdout;
}

/** code-server's CLI with throw-away config and data folders. */
function codeServer(args) {
  const scratch = mkdtempSync(join(tmpdir(), "kernel-lab-vsix-"));
  try {
    return run(process.execPath, [codeServerEntry, "--user-data-dir", join(scratch, "user-data"), ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: join(scratch, "config"), XDG_DATA_HOME: join(scratch, "data"), EXTENSIONS_GALLERY: "{}" },
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

requireInstalled();
console.log(`packaging ${extensionId} and installing it into code-server`);

const packaged = check("npm run package builds the .vsix", () => {
  rmSync(vsixPath, { force: true });
  run("npm", ["run", "--silent", "package"]);
  if (!existsSync(vsixPath)) throw new Error(`${vsixPath} was not written`);
  console.log(`    ${vsixPath}: ${(statSync(vsixPath).size / 2 ** 20).toFixed(1)} MiB`);
});

let installedDir;
if (packaged) {
  check("code-server --install-extension installs it", () => {
    rmSync(installedExtensionsDir, { recursive: true, force: true });
    // code-server won't create the folder's parents (a fresh clone has no .vscode-test/).
    mkdirSync(installedExtensionsDir, { recursive: true });
    codeServer(["--extensions-dir", installedExtensionsDir, "--install-extension", vsixPath, "--force"]);
    const listed = codeServer(["--extensions-dir", installedExtensionsDir, "--list-extensions", "--show-versions"]);
    if (!listed.includes(`${extensionId}@${manifest.version}`)) throw new Error(`--list-extensions shows:\n${listed}`);
    installedDir = readdirSync(installedExtensionsDir)
      .map((name) => join(installedExtensionsDir, name))
      .find((dir) => dir.includes(`${extensionId}-${manifest.version}`));
    if (!installedDir) throw new Error(`no ${extensionId}-${manifest.version} folder in ${installedExtensionsDir}`);
  });
}

if (installedDir) {
  check("it holds the extension, its types, grammar and linux-x64 dawn.node only", () => {
    const mustExist = [
      "package.json",
      manifest.main,
      "dist/worker.js",
      "types/kernel-lab.d.ts",
      "node_modules/webgpu/dist/linux-x64/dawn.node",
      "node_modules/typescript/lib/typescript.js",
      "node_modules/esbuild/lib/main.js",
      "node_modules/@esbuild/linux-x64/bin/esbuild",
      ...(manifest.contributes?.grammars ?? []).map((g) => g.path),
    ];
    const missing = mustExist.filter((path) => !existsSync(join(installedDir, path)));
    if (missing.length) throw new Error(`missing: ${missing.join(", ")}`);
    const platforms = readdirSync(join(installedDir, "node_modules/webgpu/dist"));
    if (platforms.join() !== "linux-x64") throw new Error(`webgpu/dist holds ${platforms.join(", ")}`);
    for (const leftOut of ["src", "test", "node_modules/typescript/lib/tsc.js", "node_modules/esbuild/bin/esbuild"]) {
      if (existsSync(join(installedDir, leftOut))) throw new Error(`${leftOut} should not be in the .vsix`);
    }
  });

  check("esbuild's binary is still executable after the zip", () => {
    const mode = statSync(join(installedDir, "node_modules/@esbuild/linux-x64/bin/esbuild")).mode;
    if ((mode & 0o111) === 0) throw new Error(`mode ${mode.toString(8)}`);
  });

  const cli = join(installedDir, "dist/cli.js");
  if (existsSync(cli)) {
    check("the installed package runs examples/vector-add.kernel.ts on the GPU (kernel-lab run --json)", () => {
      const out = run(process.execPath, [cli, "run", join(repoRoot, "examples/vector-add.kernel.ts"), "--json"], {
        cwd: tmpdir(),
        env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? tmpdir() },
      });
      const report = JSON.parse(out);
      const run0 = report.runs?.[0];
      if (!run0 || run0.correct !== true) throw new Error(`report: ${out.slice(0, 400)}`);
      console.log(`    ${report.adapter?.device}: ${run0.name} correct, median ${run0.timing?.medianMs} ms`);
    });
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
