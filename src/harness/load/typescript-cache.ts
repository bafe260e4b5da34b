// Loads the TypeScript compiler (the kernel parser's) with V8's code cache. typescript.js is 9 MB
// of JavaScript; compiling it was 220 of the first 310 ms of every `kernel-lab run` on a 2-core
// machine, about 100 ms with the cache (bench/NOTES.md §7). Node 22 does this for every module
// (`module.enableCompileCache`); on Node 20 this does it for this one file. Importing this module
// first (src/cli/main.ts, src/harness/workers/worker.ts) puts the loaded module in require's cache before
// the compiler's own `require("typescript")` runs. The cache lives next to the autotuner's
// (`cacheDir()`), is written once the command is done (so it holds the functions the run
// compiled), and a missing, stale or damaged one only means the ordinary, slower load.

import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { cacheDir } from "../cache-location";
import { writeCacheFile } from "../cache-file-node";

/** The script to take a code cache from when the command is done, and where to write it. */
let unsaved: { script: vm.Script; file: string } | undefined;

function loadTypescript(): void {
  const file = require.resolve("typescript");
  if (require.cache[file]) return;
  const { version } = require("typescript/package.json") as { version: string };
  const cacheFile = path.join(cacheDir(), `typescript-${version}-node-${process.version}-${process.arch}.v8-cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: compile without, write one at the end.
  }
  const script = new vm.Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
  const module = new Module(file);
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  require.cache[file] = module;
  if (!cachedData || script.cachedDataRejected) unsaved = { script, file: cacheFile };
}

/** Writes the code cache if this process compiled TypeScript without a usable one. */
export function saveTypescriptCache(): void {
  if (!unsaved) return;
  const { script, file } = unsaved;
  unsaved = undefined;
  // A read-only cache folder: every start compiles TypeScript itself, as without this module.
  writeCacheFile(file, script.createCachedData());
}

try {
  loadTypescript();
} catch {
  // The ordinary `require("typescript")` loads it (and reports any real problem).
}
