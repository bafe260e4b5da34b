// Writing one of the start-up caches (Pyodide's snapshot, the V8 code caches, Python's bytecode)
// on Node, whole or not at all (runtime/write-file-node.ts).

import { writeFileWhole } from "../runtime/write-file-node";

/** False where the cache folder can't be written: the cache then costs the next start its speed, nothing else. */
export function writeCacheFile(file: string, data: string | Uint8Array): boolean {
  try {
    writeFileWhole(file, data);
    return true;
  } catch {
    return false;
  }
}
