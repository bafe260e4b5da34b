// Bundles every entry point that exists with esbuild; types are checked separately (`npm run typecheck`).
import { build } from "esbuild";
import { existsSync } from "node:fs";

const entries = [
  // [source, output, platform-specific externals]
  ["src/language/index.ts", "dist/index.js", []],
  ["src/cli/main.ts", "dist/cli.js", []],
  ["src/harness/worker.ts", "dist/worker.js", []],
  ["src/editor/extension.ts", "dist/extension.js", ["vscode"]],
];

const watch = process.argv.includes("--watch");
await Promise.all(
  entries
    .filter(([src]) => existsSync(src))
    .map(([src, out, extra]) =>
      build({
        entryPoints: [src],
        outfile: out,
        bundle: true,
        platform: "node",
        target: "node20",
        format: "cjs",
        sourcemap: true,
        // Native or large packages stay in node_modules; the .vsix ships them.
        external: ["webgpu", "esbuild", "typescript", ...extra],
        logLevel: watch ? "info" : "warning",
      }),
    ),
);
