// The .vsix as a user gets it: `npm run package` (a package per platform), every package checked
// file by file (vsix-contents.mjs), then this machine's package (kernel-lab-linux-x64-….vsix here)
// installed with `code-server --install-extension` into a fresh extensions folder
// (.vscode-test/installed-extensions/, which the UI test's --installed mode loads), checks of what
// landed there, and vector-add run by the packaged command line from the installed folder (its own
// webgpu/dawn.node and typescript, nothing from the repo).
// Prints one line per check and `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dawnFolder, hostTarget } from "../../scripts/package-targets.mjs";
import { codeServerEntry, repoRoot, requireInstalled } from "./code-server.mjs";
import { checkVsixContents, expectedTargets, vsixPathOf } from "./vsix-contents.mjs";

export const installedExtensionsDir = join(repoRoot, ".vscode-test/installed-extensions");

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const extensionId = `${manifest.publisher}.${manifest.name}`;
const target = hostTarget(process.platform, process.arch);

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
if (!target) {
  console.log(`  ✗ no package for ${process.platform}-${process.arch}: nothing to install`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const vsixPath = vsixPathOf(target);
console.log(`packaging ${extensionId} and installing its ${target} package into code-server`);

const packaged = check(`npm run package builds a .vsix per target (${expectedTargets().join(", ")})`, () => {
  for (const t of expectedTargets()) rmSync(vsixPathOf(t), { force: true });
  const started = Date.now();
  // npm.cmd on Windows is started through a shell.
  run("npm", ["run", "--silent", "package"], { shell: process.platform === "win32" });
  const missing = expectedTargets().filter((t) => !existsSync(vsixPathOf(t)));
  if (missing.length) throw new Error(`not written: ${missing.map(vsixPathOf).join(", ")}`);
  console.log(`    built and packaged in ${((Date.now() - started) / 1000).toFixed(1)} s; ${vsixPath}: ${(statSync(vsixPath).size / 2 ** 20).toFixed(1)} MiB`);
});
if (packaged) await checkVsixContents(check);

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
  check(`it holds the extension, its types, grammar and the ${dawnFolder(target)} dawn.node only`, () => {
    const mustExist = [
      "package.json",
      manifest.main,
      "dist/worker.js",
      "types/kernel-lab.d.ts",
      `node_modules/webgpu/dist/${dawnFolder(target)}/dawn.node`,
      "node_modules/typescript/lib/typescript.js",
      ...(manifest.contributes?.grammars ?? []).map((g) => g.path),
    ];
    const missing = mustExist.filter((path) => !existsSync(join(installedDir, path)));
    if (missing.length) throw new Error(`missing: ${missing.join(", ")}`);
    const platforms = readdirSync(join(installedDir, "node_modules/webgpu/dist"));
    if (platforms.join() !== dawnFolder(target)) throw new Error(`webgpu/dist holds ${platforms.join(", ")}`);
    for (const leftOut of ["src", "test", "node_modules/typescript/lib/tsc.js", "node_modules/esbuild", "node_modules/@esbuild"]) {
      if (existsSync(join(installedDir, leftOut))) throw new Error(`${leftOut} should not be in the .vsix`);
    }
  });

  const cli = join(installedDir, "dist/cli.js");
  if (existsSync(cli)) {
    check("the installed package runs examples/vector-add.kernel.ts on the GPU (kernel-lab run --json)", () => {
      const out = run(process.execPath, [cli, "run", join(repoRoot, "examples/vector-add.kernel.ts"), "--json"], {
        cwd: tmpdir(),
        // Mesa (Linux) prints an error line at every start without it.
        env: { ...process.env, ...(process.platform === "linux" ? { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? tmpdir() } : {}) },
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
