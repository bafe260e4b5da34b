// Kernel Lab's Python modules compiled once, not by every process (Node only; the browser's worker
// starts Pyodide once and keeps it). Importing torch and triton is mostly compiling their source
// (~0.5 s of CPU in Pyodide; unmarshalling the bytecode takes ~10 ms): the `.pyc` files Python wrote
// in one process are kept in the cache folder, in one file named after Pyodide's version and a hash
// of the modules' text, and written into the next process's file system beside the modules
// (embedded.ts gives the modules a fixed time, so Python takes them as up to date). A changed module
// changes the hash: its process compiles afresh and replaces the file.

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, unlinkSync } from "node:fs";
import * as path from "node:path";
import { version } from "pyodide";
import { cacheDir } from "../cache-location";
import { writeCacheFile } from "../cache-file-node";

export interface BytecodeCache {
  /** The bytecode of an earlier process (lib path of the `.pyc` → bytes), empty when there is none. */
  cached: Record<string, Uint8Array>;
  /** Keeps `compiled` for the next process when it has files the cache lacks. */
  save(compiled: Record<string, Uint8Array>): void;
}

const PREFIX = `bytecode-${version}-`;

/** Undefined with KERNEL_LAB_PYODIDE_SNAPSHOT=off (every start from scratch, nothing read or written). */
export function bytecodeCache(files: Record<string, string>): BytecodeCache | undefined {
  if (process.env.KERNEL_LAB_PYODIDE_SNAPSHOT === "off") return undefined;
  const hash = createHash("sha256");
  for (const name of Object.keys(files).sort()) hash.update(`${name}\0${files[name]}\0`);
  const folder = path.join(cacheDir(), "pyodide");
  const file = path.join(folder, `${PREFIX}${hash.digest("hex").slice(0, 16)}.json`);
  const cached: Record<string, Uint8Array> = {};
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    for (const [name, base64] of Object.entries(stored)) cached[name] = Buffer.from(base64, "base64");
  } catch {
    // None yet (or unreadable): this process compiles and writes one.
  }
  return {
    cached,
    save(compiled) {
      if (Object.keys(compiled).every((name) => name in cached)) return;
      const text = JSON.stringify(Object.fromEntries(Object.entries(compiled).map(([name, bytes]) => [name, Buffer.from(bytes).toString("base64")])));
      if (!writeCacheFile(file, text)) return;
      Object.assign(cached, compiled);
      try {
        // Other versions of the modules' bytecode are of no more use.
        for (const old of readdirSync(folder)) if (old.startsWith(PREFIX) && old.endsWith(".json") && path.join(folder, old) !== file) unlinkSync(path.join(folder, old));
      } catch {
        // Another process removed one first, or the folder is read-only: left as it is.
      }
    },
  };
}
