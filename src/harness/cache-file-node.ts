// Writing one of the start-up caches (Pyodide's snapshot, the V8 code caches, Python's bytecode)
// on Node: beside the file, then renamed, so a process reading it meanwhile sees the old one or
// none, never half of it.

import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** False where the cache folder can't be written: the cache then costs the next start its speed, nothing else. */
export function writeCacheFile(file: string, data: string | Uint8Array): boolean {
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(partial, data);
    renameSync(partial, file);
    return true;
  } catch {
    rmSync(partial, { force: true });
    return false;
  }
}
