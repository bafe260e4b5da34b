// Pyodide's start in Node, from a memory snapshot where there is one. A cold start (the wasm
// instantiated, the interpreter initialised, the standard library's modules Kernel Lab's torch and
// triton import, imported) takes seconds; restoring the heap as it was after all that takes a
// fraction of it. The first cold start writes the snapshot into Kernel Lab's cache folder (one per
// Pyodide build: a snapshot of another build is refused by Pyodide and replaced); later processes
// restore it. The snapshot holds no Kernel Lab module: those are written into the fresh file
// system and imported after (embedded.ts, their bytecode cached by bytecode-node.ts), so a changed
// module is always the one that runs. Pyodide's JavaScript is loaded first, with V8's code cache
// (pyodide-script-node.ts).

import { readFileSync } from "node:fs";
import * as path from "node:path";
import { loadPyodide, version } from "pyodide";
import { cacheDir } from "../cache-location";
import { writeCacheFile } from "../cache-file-node";
import type { Pyodide } from "./embedded";
import { loadPyodideScript } from "./pyodide-script-node";

/** The standard library Kernel Lab's modules import (lib/), imported before the snapshot is taken. */
const STDLIB = "import inspect, contextlib, json, math, traceback, linecache, sys, builtins, pyodide.ffi";

type Loaded = { pyodide: Pyodide; startKind: "cold" | "snapshot" };

function snapshotFile(): string {
  return path.join(cacheDir(), "pyodide", `snapshot-${version}.bin`);
}

export async function loadPython(indexURL: string): Promise<Loaded> {
  // KERNEL_LAB_PYODIDE_SNAPSHOT=off starts cold every time, and neither reads nor writes one (nor a code cache).
  const useSnapshot = process.env.KERNEL_LAB_PYODIDE_SNAPSHOT !== "off";
  const saveCodeCache = loadPyodideScript(indexURL, useSnapshot);
  try {
    return await loadFrom(indexURL, useSnapshot);
  } finally {
    saveCodeCache();
  }
}

async function loadFrom(indexURL: string, useSnapshot: boolean): Promise<Loaded> {
  const file = snapshotFile();
  if (useSnapshot) {
    let snapshot: Uint8Array | undefined;
    try {
      snapshot = readFileSync(file);
    } catch {
      snapshot = undefined; // none yet: the cold start below writes it
    }
    if (snapshot) {
      try {
        return { pyodide: (await loadPyodide({ indexURL, _loadSnapshot: snapshot })) as unknown as Pyodide, startKind: "snapshot" };
      } catch {
        // Another Pyodide build's, or damaged: start cold and replace it.
      }
    }
  }
  const pyodide = (await loadPyodide({ indexURL, _makeSnapshot: useSnapshot })) as unknown as Pyodide & { makeMemorySnapshot(): Uint8Array };
  pyodide.runPython(STDLIB);
  if (useSnapshot) writeCacheFile(file, pyodide.makeMemorySnapshot());
  return { pyodide, startKind: "cold" };
}
