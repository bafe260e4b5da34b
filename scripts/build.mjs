// Bundles every entry point that exists with esbuild; types are checked separately (`npm run typecheck`).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const entries = [
  // [source, output, platform-specific externals]
  ["src/language/index.ts", "dist/index.js", []],
  ["src/cli/main.ts", "dist/cli.js", []],
  ["src/harness/workers/worker.ts", "dist/worker.js", []],
  // The Python thread of `kernel-lab run FILE.py` (a worker thread of the CLI and of the editor's worker).
  ["src/harness/python/worker-node.ts", "dist/python-worker.js", []],
  ["src/editor/extension.ts", "dist/extension.js", ["vscode"]],
  ["src/editor/debug/adapter-main.ts", "dist/debug-adapter.js", []],
];

// esbuild gives every bundled module that imports TypeScript a copy of its namespace of its own
// (`__toESM(require("typescript"))`: 2244 getters copied, 29 times in cli.js), about a tenth of
// every `kernel-lab` start. The copies are alike and never written to, so the first serves all.
const TYPESCRIPT_IMPORT = '__toESM(require("typescript"))';
const typescriptOnce = (js) => js.replaceAll(TYPESCRIPT_IMPORT, `(__toESM.typescript ??= ${TYPESCRIPT_IMPORT})`);

const watch = process.argv.includes("--watch");

// Inside `npm test` (scripts/test-all.mjs), which built dist/ at its start and sets this for every
// stage after: the stages' own builds (test:editor's, `npm run package`'s) would write the same files.
if (process.env.KERNEL_LAB_DIST_BUILT === "1" && !watch) {
  console.log("build: dist/ was built at the start of npm test (KERNEL_LAB_DIST_BUILT=1); not built again");
  process.exit(0);
}

// The compiler's build (src/harness/autotune/compiler-build.ts): the version and a hash of the
// sources that decide the generated code, so a cached autotune choice is not reused by a compiler
// that generates other code. Sorted paths and contents with `/` separators: the same on every OS.
const COMPILER_SOURCES = ["src/compile.ts", "src/syntax", "src/semantics", "src/ir", "src/codegen", "src/builtins", "src/python", "src/language"];
function compilerBuild() {
  const hash = createHash("sha256");
  const visit = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(`${path}/${name}`);
    } else if (path.endsWith(".ts")) {
      hash.update(`${path}\0`);
      // Line ends as committed: a Windows checkout with CRLF hashes the same.
      hash.update(readFileSync(path, "utf8").replaceAll("\r\n", "\n"));
      hash.update("\0");
    }
  };
  for (const path of COMPILER_SOURCES) visit(path);
  const { version } = JSON.parse(readFileSync("package.json", "utf8"));
  return `${version}+${hash.digest("hex").slice(0, 12)}`;
}
const define = { KERNEL_LAB_COMPILER_BUILD: JSON.stringify(compilerBuild()) };
await Promise.all(
  entries
    .filter(([src]) => existsSync(src))
    .map(([src, out, extra]) =>
      build({
        write: false,
        entryPoints: [src],
        outfile: out,
        bundle: true,
        platform: "node",
        target: "node20",
        format: "cjs",
        sourcemap: true,
        // Native or large packages stay in node_modules; the .vsix ships them.
        external: ["webgpu", "esbuild", "typescript", ...extra],
        define,
        logLevel: watch ? "info" : "warning",
      }).then(({ outputFiles }) => {
        // Only the ends of the imports' lines move, so the source maps still hold.
        // write: false, so esbuild makes no folders: a clean clone has no dist/ yet.
        for (const f of outputFiles) mkdirSync(dirname(f.path), { recursive: true });
        for (const f of outputFiles) writeFileSync(f.path, f.path.endsWith(".js") ? typescriptOnce(f.text) : f.contents);
      }),
    ),
);

// Python (issue 27): Pyodide's runtime files next to the bundles, so nothing is downloaded at run
// time (the worker loads them from dist/pyodide/), and Kernel Lab's own torch and triton modules
// (dist/python-lib/, written into Pyodide's file system when it starts).
if (existsSync("src/harness/python/worker-node.ts")) {
  mkdirSync("dist/pyodide", { recursive: true });
  // pyodide.js: the loader the browser's worker runs (Node's bundle has its own copy of it).
  for (const f of ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]) copyFileSync(`node_modules/pyodide/${f}`, `dist/pyodide/${f}`);
  rmSync("dist/python-lib", { recursive: true, force: true });
  cpSync("src/harness/python/lib", "dist/python-lib", { recursive: true, filter: (f) => !f.includes("__pycache__") });
}

// The browser's outputs (the web extension, VS Code for the Web): the same compiler and harness,
// with the runtime seam's Node side (src/runtime/host-node.ts) swapped for the browser's
// (host-browser.ts), `node:path` for path-browserify, and TypeScript bundled in (its Node-only
// requires are disabled by its package.json's `browser` field). Any other Node module fails the
// build: that is the check that nothing Node-only leaks into the browser. The debug adapter's
// library needs two small stand-ins (scripts/browser-shims/).
const browserSeam = {
  name: "kernel-lab-browser-host",
  setup(b) {
    b.onResolve({ filter: /\/host-node$/ }, (args) => ({ path: resolve(args.resolveDir, "host-browser.ts") }));
  },
};
const browserEntries = [
  // [source, output, externals]
  ["src/harness/workers/web-worker.ts", "dist/web/worker.js", []],
  ["src/editor/web/extension.ts", "dist/web/extension.js", ["vscode"]],
];
await Promise.all(
  browserEntries
    .filter(([src]) => existsSync(src))
    .map(([src, out, extra]) =>
      build({
        entryPoints: [src],
        outfile: out,
        bundle: true,
        platform: "browser",
        target: "es2022",
        format: out.endsWith("extension.js") ? "cjs" : "iife",
        minify: true,
        keepNames: true,
        sourcemap: false,
        alias: {
          "node:path": "path-browserify",
          path: "path-browserify",
          events: "./scripts/browser-shims/events.js",
          url: "./scripts/browser-shims/url.js",
        },
        external: extra,
        define,
        plugins: [browserSeam],
        logLevel: watch ? "info" : "warning",
      }),
    ),
);

// The editor's non-Node outputs. The results webview's script runs in the webview (a browser);
// Chart.js is copied from node_modules into media/ so the webview loads nothing from outside
// media/; the TypeScript server plugin becomes a package under node_modules/, where tsserver
// looks plugins up (`contributes.typescriptServerPlugins`).
if (existsSync("src/editor/webview/results.ts")) {
  await build({
    entryPoints: ["src/editor/webview/results.ts"],
    outfile: "media/results.js",
    bundle: true,
    platform: "browser",
    target: "es2022",
    format: "iife",
    sourcemap: false,
    logLevel: watch ? "info" : "warning",
  });
  copyFileSync("node_modules/chart.js/dist/chart.umd.js", "media/chart.umd.js");
}
if (existsSync("src/editor/ts-plugin/index.ts")) {
  const pluginDir = "node_modules/kernel-lab-ts-plugin";
  mkdirSync(pluginDir, { recursive: true });
  writeFileSync(
    `${pluginDir}/package.json`,
    JSON.stringify({ name: "kernel-lab-ts-plugin", version: "0.1.0", private: true, main: "index.js" }, null, 2) + "\n",
  );
  await build({
    entryPoints: ["src/editor/ts-plugin/index.ts"],
    outfile: `${pluginDir}/index.js`,
    bundle: true,
    platform: "node",
    target: "node18",
    format: "cjs",
    external: ["typescript"],
    logLevel: watch ? "info" : "warning",
  });
}
