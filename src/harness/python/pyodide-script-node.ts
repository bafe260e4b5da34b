// Pyodide's JavaScript (pyodide.asm.js, 1 MB) loaded with V8's code cache, in Node. Left to itself,
// loadPyodide imports the file as an ES module, and Node 20 first lexes all of it to detect its
// module format (~0.8 s of CPU); run as a script instead it is compiled eagerly (~0.8 s: its code
// sits in one parenthesised function); with the code cache both go (bench/NOTES.md §26). Running it
// defines `globalThis._createPyodideModule`, which loadPyodide then uses instead of loading the file.
//
// A vm.Script given cached data has no dynamic import() on Node 20 (only its experimental
// USE_MAIN_CONTEXT_DEFAULT_LOADER, which prints a warning), and the file imports Node's modules
// with import("node:fs") etc.: those become require()s, as namespaces with their `default`. Its
// other import()s load packages and scripts, which Kernel Lab never asks for. The cache lives in
// the cache folder, one per Pyodide, Node and architecture, written after the first load.

import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { version } from "pyodide";
import { cacheDir } from "../cache-location";
import { writeCacheFile } from "../cache-file-node";

/** Runs pyodide.asm.js from `indexURL` (once per thread); gives a function that writes the code cache when this load made none usable. */
export function loadPyodideScript(indexURL: string, useCache: boolean): () => void {
  if (typeof (globalThis as { _createPyodideModule?: unknown })._createPyodideModule === "function") return () => {};
  const file = path.join(indexURL, "pyodide.asm.js");
  const text = readFileSync(file, "utf8").replace(/\bimport\("(node:[a-z/_]+)"\)/g, (_, name: string) => `Promise.resolve(__namespace(require(${JSON.stringify(name)})))`);
  const cacheFile = path.join(cacheDir(), "pyodide", `pyodide.asm-${version}-node-${process.version}-${process.arch}.v8-cache`);
  let cachedData: Buffer | undefined;
  if (useCache) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined; // none yet: written after this load
    }
  }
  const wrapped = Module.wrap(`const __namespace = (m) => ({ ...m, default: m });\n${text}`);
  const script = new vm.Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  if (!useCache || (cachedData && !script.cachedDataRejected)) return () => {};
  return () => {
    writeCacheFile(cacheFile, script.createCachedData());
  };
}
