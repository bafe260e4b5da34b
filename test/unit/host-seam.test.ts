// The runtime seam (src/runtime/host.ts) is the only fork between Node and the browser: the
// compiler, the runtime and the harness run unchanged in the web extension's worker. The browser
// build (scripts/build.mjs) fails on a `node:` module it can't resolve; this test also catches
// what would only fail when it runs there: Node's globals (`process`, `Buffer`, `require`,
// `__dirname`). Node-only files are the seam's Node side and the Node entry points.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

const SRC = path.resolve(__dirname, "../../src");

/** Node's side of the seam, and entry points that only ever run in Node. */
const NODE_ONLY = new Set([
  "runtime/host-node.ts",
  "runtime/dawn.ts",
  "runtime/notices.ts",
  // A cache file written whole (host-node.ts and the start-up caches below).
  "runtime/write-file-node.ts",
  "harness/workers/worker.ts",
  "harness/load/typescript-cache.ts",
  // Writing the start-up caches above (V8 code caches, Pyodide's snapshot, Python's bytecode).
  "harness/cache-file-node.ts",
  // The Python thread's Node side: the worker thread and its entry (the browser's is a Web Worker).
  "harness/python/thread-node.ts",
  "harness/python/worker-node.ts",
  "harness/python/snapshot-node.ts",
  "harness/python/bytecode-node.ts",
  "harness/python/pyodide-script-node.ts",
  // Where the Python modules are beside the Node bundles (the worker and `check` read them; the browser is handed them).
  "harness/python/lib-folder-node.ts",
]);
/** Folders that are not part of the worker: the command line, and the editor (its own web bundle checks itself). */
const NOT_IN_THE_WORKER = ["cli/", "editor/"];

/** Node's module imports (node:path is bundled as path-browserify), and Node's globals. */
const NODE_ONLY_USES: [RegExp, string][] = [
  [/from "node:(?!path")[a-z_/]+"/, "a node: module"],
  [/\bprocess\./, "process"],
  [/(?<![A-Za-z])Buffer\./, "Buffer"],
  [/(?<![.\w])require\(/, "require"],
  [/\b__dirname\b|\b__filename\b/, "__dirname / __filename"],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith(".ts") ? [full] : [];
  });
}

/** The file's code without comments and string literals' contents (a rough cut, enough for these patterns). */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/`(?:\\.|[^`\\])*`/g, "``")
    .replace(/"(?:\\.|[^"\\\n])*"/g, (s) => (s.startsWith('"node:') ? s : '""'));
}

test("the compiler, runtime and harness use no Node API outside the seam's Node side", () => {
  const wrong: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join("/");
    if (NODE_ONLY.has(rel) || NOT_IN_THE_WORKER.some((dir) => rel.startsWith(dir))) continue;
    const lines = code(readFileSync(file, "utf8")).split("\n");
    lines.forEach((line, i) => {
      for (const [pattern, what] of NODE_ONLY_USES) if (pattern.test(line)) wrong.push(`${rel}:${i + 1} uses ${what}: ${line.trim()}`);
    });
  }
  assert.deepEqual(wrong, []);
});

test("the check sees what it looks for", () => {
  const sample = 'import * as fs from "node:fs";\nconst a = process.env.X;\nconst b = Buffer.from("x");\nconst c = require("y");\n// process.env in a comment\nconst d = ArrayBuffer.isView(x);\nimport * as path from "node:path";';
  const found = code(sample)
    .split("\n")
    .flatMap((line) => NODE_ONLY_USES.filter(([p]) => p.test(line)).map(([, what]) => what));
  assert.deepEqual(found, ["a node: module", "process", "Buffer", "require"]);
});
