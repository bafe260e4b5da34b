// What each platform's .vsix holds (scripts/package.mjs builds them; test/editor/vsix-contents.mjs
// checks them file by file). A desktop package carries Dawn for its own platform only (each
// dawn.node is 12-22 MB; Windows' also needs its two DirectX shader compilers); the web package
// runs on the browser's WebGPU and holds no native file and no Node-only bundle.
// esbuild is build-time only: kernel files are transpiled by TypeScript's own transpiler.

/** VS Code's target names (`vsce package --target`), one .vsix each. */
export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64", "web"];

/** The targets this manifest can be packaged for: the web package needs the `browser` entry point. */
export function targetsOf(manifest) {
  return TARGETS.filter((target) => target !== "web" || typeof manifest.browser === "string");
}

/** `kernel-lab-linux-x64-0.1.0.vsix`: vsce's own name for a target's package. */
export function vsixName(manifest, target) {
  return `${manifest.name}-${target}-${manifest.version}.vsix`;
}

/** The desktop target a machine installs ("linux-x64"), or undefined where no package fits. */
export function hostTarget(platform, arch) {
  const target = `${platform}-${arch}`;
  return TARGETS.includes(target) && target !== "web" ? target : undefined;
}

/** The folder of node_modules/webgpu/dist/ a desktop target ships: one universal binary serves both Macs. */
export function dawnFolder(target) {
  return target.startsWith("darwin-") ? "darwin-universal" : target;
}

// A rule names a file, a folder (everything under it) or the files of one folder whose names match.
const file = (path, optional = false) => ({ kind: "file", path, optional });
const folder = (path, optional = false) => ({ kind: "folder", path, optional });
const matching = (path, pattern) => ({ kind: "matching", path, pattern });

/** What every package holds: the manifest (written per target, not listed here), docs, grammar, types, webview and TS plugin. */
const COMMON = [
  file("README.md"),
  file("LICENSE"),
  folder("media"),
  folder("syntaxes"),
  folder("types"),
  // The TypeScript server plugin, built by scripts/build.mjs where tsserver looks plugins up.
  folder("node_modules/kernel-lab-ts-plugin"),
];

/** The repository paths a target's package holds. */
export function rulesFor(target) {
  // Python files run in the browser too (src/harness/python/web-python.ts): Pyodide and Kernel Lab's torch and triton.
  if (target === "web") return [...COMMON, folder("dist/web"), folder("dist/pyodide"), folder("dist/python-lib")];
  return [
    ...COMMON,
    // Node's bundles (extension, worker, debug adapter, CLI) and the browser's (dist/web/, when built).
    folder("dist"),
    file("node_modules/webgpu/package.json"),
    file("node_modules/webgpu/index.js"),
    file("node_modules/webgpu/LICENSE.md"),
    folder(`node_modules/webgpu/dist/${dawnFolder(target)}`),
    // The compiler parses and transpiles kernels with TypeScript's API; no tsc, tsserver or message translations.
    file("node_modules/typescript/package.json"),
    file("node_modules/typescript/LICENSE.txt"),
    file("node_modules/typescript/lib/typescript.js"),
    matching("node_modules/typescript/lib", /^lib\..*\.d\.ts$/),
  ];
}

/**
 * The manifest a target's package carries. The web package has no Node entry point, and no
 * `extensionKind: ["workspace"]`: in a web workbench with a remote (code-server, Codespaces) that
 * would send it to the remote's Node host, where it has nothing to run; with `browser` only, VS Code
 * runs it in the browser's extension host. It reads files through `vscode.workspace.fs`, so it also
 * works in virtual workspaces (github.dev's `vscode-vfs://`).
 */
export function manifestFor(manifest, target) {
  if (target !== "web") return manifest;
  const { main: _main, extensionKind: _kind, ...web } = manifest;
  const virtualWorkspaces = { supported: true, description: "Kernels run on the browser's WebGPU from the workspace's files, wherever they are." };
  return { ...web, capabilities: { ...web.capabilities, virtualWorkspaces } };
}
