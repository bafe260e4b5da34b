// Writing a cache file on Node: beside the file under a name of its own, then renamed over it, so
// a process or thread reading it meanwhile sees the old file or none, never half of one. The
// temporary name carries a random part as well as the process id: worker threads share the id.

import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** Throws what the file system threw, after removing the temporary file. */
export function writeFileWhole(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
